import type { FieldError } from '../../../contract/errors.ts';
import type { ChatRef, CreateChannelsLinkBody, CreateChatsLinkBody, EmbedUser, IframeLink } from '../../../contract/iframe-links.ts';
import { contactKeyOf } from '../contacts/contacts.ts';
import { AppError, validationError } from '../errors.ts';
import type { ContactRecord } from '../contacts/ports.ts';
import type { LinkClaims } from './link-token.ts';
import { embeddingPolicy } from './policy.ts';
import type { EmbeddingDeps } from './ports.ts';
import { chatKeys } from './scope.ts';

type LinkDeps = Pick<EmbeddingDeps, 'store' | 'clock' | 'links' | 'publicUrl'>;

async function issue(deps: LinkDeps, claims: Omit<LinkClaims, 'id' | 'expiresAt'>, path: string): Promise<IframeLink> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + embeddingPolicy.linkTtlSeconds * 1000);
  const { token, claims: signed } = await deps.links.sign({ ...claims, expiresAt }, now);
  // A query parameter, not a fragment: the page itself must read it to send the account's frame-ancestors.
  return { url: `${deps.publicUrl}/embed/${path}?link=${encodeURIComponent(token)}`, expires_at: signed.expiresAt.toISOString() };
}

/** The user's name, when given, is what the CRM calls the user: it is stored like POST /v2/users does. */
async function rememberUser(deps: LinkDeps, accountId: string, user: EmbedUser | undefined) {
  if (user?.name) await deps.store.crmUsers.upsert(accountId, [{ id: user.id, name: user.name.trim() }], deps.clock.now());
  return user ? { id: user.id, name: user.name?.trim() ?? null } : null;
}

async function requireChannel(deps: LinkDeps, accountId: string, channelId: string) {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw new AppError('CHANNEL_NOT_FOUND', 'Channel not found');
  return channel;
}

function checkChats(chats: ChatRef[]): FieldError[] {
  const problems: FieldError[] = [];
  chats.forEach((chat, i) => {
    const key = contactKeyOf(chat);
    if ('problem' in key) problems.push({ field: `chats.${i}`, message: key.problem });
  });
  return problems;
}

/** The chat frame: every chat of the account (global), or only the chats of one CRM card. */
export async function createChatsLink(deps: LinkDeps, accountId: string, body: CreateChatsLinkBody, mintedBy: string | null = null): Promise<IframeLink> {
  const problems: FieldError[] = [];
  if (body.scope === 'card' && !body.chats) problems.push({ field: 'chats', message: 'is required for the card scope' });
  if (body.scope === 'global' && body.chats) problems.push({ field: 'chats', message: 'is not allowed for the global scope' });
  const chats = body.chats ?? [];
  problems.push(...checkChats(chats));
  const active = body.active_chat;
  if (active && body.scope === 'card' && problems.length === 0) {
    const wanted = new Set(chatKeys(active));
    if (!chats.some((c) => chatKeys(c).some((k) => wanted.has(k)))) {
      problems.push({ field: 'active_chat', message: 'must be one of chats' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
  if (active?.channel_id) await requireChannel(deps, accountId, active.channel_id);

  const user = await rememberUser(deps, accountId, body.user);
  const named = new Map<string, ContactRecord>();
  for (const chat of chats) {
    const key = contactKeyOf(chat);
    if (chat.contact_name && !('problem' in key)) named.set(`${key.chatType}:${key.kind}:${key.value}`, { ...key, name: chat.contact_name.trim() });
  }
  if (named.size > 0) await deps.store.contacts.upsert(accountId, [...named.values()], deps.clock.now());

  return issue(
    deps,
    {
      accountId,
      kind: 'chats',
      user,
      scope: body.scope,
      chats: chats.map(({ contact_name: _name, ...ref }) => ref),
      activeChat: active ?? null,
      transport: null,
      channelId: null,
      options: body.options ?? {},
      mintedBy,
    },
    'chats',
  );
}

/** The connect frame: connect a new channel (optionally of a preselected transport) or reconnect one. */
export async function createChannelsLink(deps: LinkDeps, accountId: string, body: CreateChannelsLinkBody, mintedBy: string | null = null): Promise<IframeLink> {
  let transport = body.transport ?? null;
  if (body.channel_id) {
    const channel = await requireChannel(deps, accountId, body.channel_id);
    if (transport && transport !== channel.transport) {
      throw validationError([{ field: 'transport', message: `must match the channel's transport (${channel.transport})` }]);
    }
    transport = channel.transport;
  }
  const user = await rememberUser(deps, accountId, body.user);
  return issue(
    deps,
    { accountId, kind: 'channels', user, scope: null, chats: [], activeChat: null, transport, channelId: body.channel_id ?? null, options: body.options ?? {}, mintedBy },
    'channels',
  );
}

