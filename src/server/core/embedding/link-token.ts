import { randomUUID } from 'node:crypto';
import { deriveKey } from '../keys.ts';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Transport } from '../../../contract/channels.ts';
import type { ActiveChat, ChatRef, EmbedOptions, SessionEvents } from '../../../contract/iframe-links.ts';
import type { SessionKind } from '../../../contract/session.ts';
import { allScopes, type Scope } from '../auth/ports.ts';

/** What a frame may see and do: granted by a link, carried over into the session it is exchanged for. */
export interface FrameGrant {
  accountId: string;
  kind: SessionKind;
  user: { id: string; name: string | null } | null;
  /** chats frames: global or card; null for channels frames. */
  scope: 'global' | 'card' | null;
  /** The chats a card frame may touch. */
  chats: ChatRef[];
  activeChat: ActiveChat | null;
  transport: Transport | null;
  channelId: string | null;
  options: EmbedOptions;
  /**
   * The credential the link was created with (`token:<id>`, see grants.ts), or null: revoking that credential
   * refuses the link and ends the sessions it was exchanged for.
   */
  mintedBy: string | null;
  /**
   * The OAuth scopes of the token the link was created with: the frame may do what that token may, no more. Null
   * (or absent) for a credential that holds every scope (a client token).
   */
  scopes?: readonly Scope[] | null | undefined;
  /** Which bridge messages the frame posts; both when absent. */
  useEvents?: SessionEvents | undefined;
  /** The CRM's name for its client, when it gave one. */
  clientType?: string | null | undefined;
}

/** What an iframe link grants; signed, so the server trusts it when it comes back. */
export interface LinkClaims extends FrameGrant {
  /** The link's id: it is exchanged for a session once. */
  id: string;
  expiresAt: Date;
}

export type LinkCheck = { status: 'valid'; claims: LinkClaims } | { status: 'expired'; claims: LinkClaims } | { status: 'invalid' };

export interface LinkSigner {
  sign(claims: Omit<LinkClaims, 'id'>, issuedAt: Date): Promise<{ token: string; claims: LinkClaims }>;
  /** Checks the signature, then the expiry at `now`. A well-signed expired link still names its account. */
  verify(token: string, now: Date): Promise<LinkCheck>;
}

const AUDIENCE = 'messaging-gateway/embed';

interface Payload extends JWTPayload {
  kind: SessionKind;
  user: LinkClaims['user'];
  scope: LinkClaims['scope'];
  chats: ChatRef[];
  active_chat: ActiveChat | null;
  transport: Transport | null;
  channel_id: string | null;
  options: EmbedOptions;
  minted_by?: string | null;
  scopes?: string[] | null;
  use_events?: SessionEvents;
  client_type?: string | null;
}

/** The scopes a link names; anything but a list of known scopes names none (a link signed before scopes were kept names every one). */
const scopesOf = (value: unknown): Scope[] | null =>
  Array.isArray(value) ? allScopes.filter((s) => value.includes(s)) : null;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function claimsOf(p: JWTPayload): LinkClaims | null {
  const payload = p as Partial<Payload>;
  if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
  if (payload.kind !== 'chats' && payload.kind !== 'channels') return null;
  return {
    id: payload.jti,
    accountId: payload.sub,
    kind: payload.kind,
    user: payload.user ?? null,
    scope: payload.scope ?? null,
    chats: payload.chats ?? [],
    activeChat: payload.active_chat ?? null,
    transport: payload.transport ?? null,
    channelId: payload.channel_id ?? null,
    options: payload.options ?? {},
    mintedBy: typeof payload.minted_by === 'string' ? payload.minted_by : null,
    scopes: scopesOf(payload.scopes),
    useEvents: payload.use_events ?? { messages: true, deals: true },
    clientType: payload.client_type ?? null,
    expiresAt: new Date(payload.exp * 1000),
  };
}

/**
 * Links are compact JWS (HS256) under a key derived from SECRET_KEY with HKDF and a label of its own, so no
 * other signature of the gateway can pass for a link. The account is the subject, the link id the `jti`.
 */
export function linkSigner(secretKey: string): LinkSigner {
  const key = new Uint8Array(deriveKey(secretKey, 'iframe-links/v1'));
  return {
    async sign(input, issuedAt) {
      const claims: LinkClaims = { ...input, scopes: input.scopes ?? null, id: randomUUID() };
      const payload: Payload = {
        kind: claims.kind,
        user: claims.user,
        scope: claims.scope,
        chats: claims.chats,
        active_chat: claims.activeChat,
        transport: claims.transport,
        channel_id: claims.channelId,
        options: claims.options,
        minted_by: claims.mintedBy,
        scopes: claims.scopes ? [...claims.scopes] : null,
        use_events: claims.useEvents ?? { messages: true, deals: true },
        client_type: claims.clientType ?? null,
      };
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.accountId)
        .setJti(claims.id)
        .setAudience(AUDIENCE)
        .setIssuedAt(seconds(issuedAt))
        .setExpirationTime(seconds(claims.expiresAt))
        .sign(key);
      return { token, claims: { ...claims, expiresAt: new Date(seconds(claims.expiresAt) * 1000) } };
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: AUDIENCE, currentDate: now, clockTolerance: 0 });
        const claims = claimsOf(payload);
        return claims ? { status: 'valid', claims } : { status: 'invalid' };
      } catch (err) {
        // The signature is checked before the claims, so an expired link was still signed by us.
        if (err instanceof errors.JWTExpired) {
          const claims = claimsOf(err.payload);
          if (claims) return { status: 'expired', claims };
        }
        return { status: 'invalid' };
      }
    },
  };
}
