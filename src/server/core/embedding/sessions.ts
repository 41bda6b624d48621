import type { SessionInfo, SessionToken } from '../../../contract/session.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import type { LinkSigner } from './link-token.ts';
import { embeddingPolicy } from './policy.ts';
import type { EmbedSessionRecord, EmbeddingDeps } from './ports.ts';
import { mintSessionToken, parseSessionToken, sessionSecretMatches } from './session-token.ts';

const after = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);
const earliest = (a: Date, b: Date) => (a < b ? a : b);

/**
 * The frame trades its link for a session, once. Expired, tampered and already used links are all refused
 * with 401, the same way a wrong token is.
 */
export async function exchangeLink(
  deps: { store: Store; clock: Clock; links: LinkSigner },
  link: string,
): Promise<SessionToken & { session: EmbedSessionRecord }> {
  const now = deps.clock.now();
  const check = await deps.links.verify(link, now);
  if (check.status === 'invalid') throw new AppError('UNAUTHORIZED', 'The link is not valid');
  if (check.status === 'expired') throw new AppError('UNAUTHORIZED', 'The link has expired');
  const { claims } = check;
  if (!(await deps.store.accounts.get(claims.accountId))) throw new AppError('UNAUTHORIZED', 'The link is not valid');
  // Each session has a request window of its own: a cap keeps sessions from multiplying an account's limit.
  if ((await deps.store.embedSessions.countOpen(claims.accountId, now)) >= embeddingPolicy.maxOpenSessionsPerAccount) {
    throw new AppError('TOO_MANY_REQUESTS', 'Too many open frame sessions for this account', { limit: embeddingPolicy.maxOpenSessionsPerAccount });
  }

  const minted = mintSessionToken();
  const maxExpiresAt = after(now, embeddingPolicy.sessionMaxSeconds);
  const session: EmbedSessionRecord = {
    id: minted.id,
    accountId: claims.accountId,
    kind: claims.kind,
    secretHash: minted.secretHash,
    linkId: claims.id,
    user: claims.user,
    scope: claims.scope,
    chats: claims.chats,
    activeChat: claims.activeChat,
    transport: claims.transport,
    channelId: claims.channelId,
    options: claims.options,
    mintedBy: claims.mintedBy,
    scopes: claims.scopes ?? null,
    useEvents: claims.useEvents,
    clientType: claims.clientType ?? null,
    createdAt: now,
    expiresAt: earliest(after(now, embeddingPolicy.sessionTtlSeconds), maxExpiresAt),
    maxExpiresAt,
    revokedAt: null,
  };
  if (!(await deps.store.embedSessions.insert(session))) throw new AppError('UNAUTHORIZED', 'The link was already used');
  // Checked after the insert: a revocation running meanwhile either revoked this session or is seen here.
  if (claims.mintedBy !== null && (await deps.store.embedSessions.grantEnded(claims.mintedBy))) {
    await deps.store.embedSessions.revoke(session.id, now);
    throw new AppError('UNAUTHORIZED', 'The link is not valid');
  }
  await deps.store.embedSessions.purgeEndedBefore(after(now, -embeddingPolicy.purgeAfterSeconds));
  return { token: minted.token, expires_at: session.expiresAt.toISOString(), session };
}

const isOpen = (s: EmbedSessionRecord, now: Date) => s.revokedAt === null && s.expiresAt > now;

/** The session a bearer token stands for, or null when the token is malformed, wrong, revoked or expired. */
export async function authenticateSession(deps: { store: Store; clock: Clock }, token: unknown): Promise<EmbedSessionRecord | null> {
  if (typeof token !== 'string') return null;
  const parsed = parseSessionToken(token);
  if (!parsed) return null;
  const session = await deps.store.embedSessions.get(parsed.id);
  if (!session || !sessionSecretMatches(parsed.secret, session.secretHash)) return null;
  return isOpen(session, deps.clock.now()) ? session : null;
}

/** The stored session, still open, or null (for connections that outlive a request). */
export async function reloadSession(deps: { store: Store; clock: Clock }, id: string): Promise<EmbedSessionRecord | null> {
  const session = await deps.store.embedSessions.get(id);
  return session && isOpen(session, deps.clock.now()) ? session : null;
}

/** Pushes the expiry out by a full lifetime, never past the session's maximum. */
export async function renewSession(deps: { store: Store; clock: Clock }, session: EmbedSessionRecord): Promise<Date> {
  const expiresAt = earliest(after(deps.clock.now(), embeddingPolicy.sessionTtlSeconds), session.maxExpiresAt);
  await deps.store.embedSessions.extend(session.id, expiresAt);
  return expiresAt;
}

/** Ends the frame's own session and its live connections. */
export async function revokeSession(deps: Pick<EmbeddingDeps, 'store' | 'clock' | 'live'>, session: EmbedSessionRecord): Promise<void> {
  await deps.store.embedSessions.revoke(session.id, deps.clock.now());
  await deps.live.end([session.id]);
}

/** The account ends the open sessions of one CRM user, or all of them. */
export async function revokeSessions(
  deps: Pick<EmbeddingDeps, 'store' | 'clock' | 'live'>,
  accountId: string,
  filter: { userId?: string | undefined },
): Promise<number> {
  const ids = await deps.store.embedSessions.revokeOpen(accountId, filter, deps.clock.now());
  if (ids.length > 0) await deps.live.end(ids);
  return ids.length;
}

export async function describeSession(deps: { store: Store }, session: EmbedSessionRecord): Promise<SessionInfo> {
  let user = session.user;
  if (user && user.name === null) {
    const [known] = await deps.store.crmUsers.getMany(session.accountId, [user.id]);
    if (known) user = { id: user.id, name: known.name };
  }
  return {
    kind: session.kind,
    account_id: session.accountId,
    user,
    scope: session.scope,
    chats: session.chats,
    active_chat: session.activeChat,
    transport: session.transport,
    channel_id: session.channelId,
    options: session.options,
    use_events: session.useEvents ?? { messages: true, deals: true },
    client_type: session.clientType ?? null,
    allowed_origins: await deps.store.embeddingOrigins.list(session.accountId),
    expires_at: session.expiresAt.toISOString(),
  };
}
