import type { FieldError } from '../../../contract/errors.ts';
import type {
  ActiveChat,
  ActiveChatRequest,
  ChatRef,
  CreateChannelsLinkBody,
  CreateChatsLinkBody,
  EmbedUser,
  IframeLink,
  SessionEvents,
  UseEvents,
} from '../../../contract/iframe-links.ts';
import { maxCardChats } from '../../../contract/iframe-links.ts';
import { contactKeyOf } from '../contacts/contacts.ts';
import { AppError, validationError } from '../errors.ts';
import type { ContactRecord } from '../contacts/ports.ts';
import type { FrameGrant, LinkClaims } from './link-token.ts';
import { embeddingPolicy } from './policy.ts';
import type { EmbeddingDeps } from './ports.ts';
import { chatKeys } from './scope.ts';

type LinkDeps = Pick<EmbeddingDeps, 'store' | 'clock' | 'links' | 'publicUrl'>;

async function issue(deps: LinkDeps, claims: Omit<LinkClaims, 'id' | 'expiresAt'>, path: string): Promise<IframeLink> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + embeddingPolicy.linkTtlSeconds * 1000);
  const { token, claims: signed } = await deps.links.sign({ ...claims, expiresAt }, now);
  // A query parameter, not a fragment: the page itself must read it to send the account's frame-ancestors.
  const url = `${deps.publicUrl}/embed/${path}?link=${encodeURIComponent(token)}`;
  // `link` is what the service's clients read; `url` stays for those written against it.
  return { link: url, url, expires_at: signed.expiresAt.toISOString() };
}

/**
 * The CRM user a link is for: flat `user_id` and `author_name` (as the service's clients send them) or the nested
 * `user`. Both may not disagree on the id.
 */
function userOf(body: { user_id?: string | undefined; author_name?: string | undefined; user?: EmbedUser | undefined }): EmbedUser | undefined | FieldError {
  if (body.user && body.user_id !== undefined && body.user.id !== body.user_id) return { field: 'user_id', message: 'differs from user.id' };
  const id = body.user_id ?? body.user?.id;
  if (id === undefined) return undefined;
  const name = body.author_name ?? body.user?.name;
  return name === undefined ? { id } : { id, name };
}

const isProblem = (v: unknown): v is FieldError => typeof v === 'object' && v !== null && 'field' in v;

/** Both kinds while the link names none; once named, only those set true. */
const sessionEvents = (use: UseEvents | undefined): SessionEvents =>
  use === undefined ? { messages: true, deals: true } : { messages: use.messages === true, deals: use.deals === true };

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

/**
 * A card chat by one identifier, as contacts are keyed: its `chat_id` when given (the service's clients send
 * `chat_id` and `username` together), else its username or phone.
 */
const primaryRef = ({ contact_name: _name, ...chat }: ChatRef): ChatRef => {
  if (chat.chat_id !== undefined) {
    const byName = chat.chat_type === 'telegram' || chat.chat_type === 'max';
    return { chat_type: chat.chat_type, chat_id: chat.chat_id, ...(byName && chat.username !== undefined ? { username: chat.username } : {}) };
  }
  return chat.username !== undefined ? { chat_type: chat.chat_type, username: chat.username } : chat;
};

const singleKey = (chat: ChatRef) => contactKeyOf(chat.chat_id !== undefined ? { chat_type: chat.chat_type, chat_id: chat.chat_id } : primaryRef(chat));

function checkChats(chats: ChatRef[]): FieldError[] {
  const problems: FieldError[] = [];
  chats.forEach((chat, i) => {
    const key = singleKey(chat);
    if ('problem' in key) problems.push({ field: `chats.${i}`, message: key.problem });
  });
  return problems;
}

/**
 * The chat to open first: by `chat_id`, or by `username` where the chat type has user names (telegram, max).
 * The session carries a `chat_id` for the frame to open: the username stands in for it until the chat is known.
 */
function activeChatOf(active: ActiveChatRequest | undefined, problems: FieldError[]): ActiveChat | undefined {
  if (!active) return undefined;
  const { chat_id: chatId, username, ...rest } = active;
  if (chatId === undefined && username === undefined) {
    problems.push({ field: 'active_chat', message: 'needs chat_id or username' });
    return undefined;
  }
  if (username !== undefined && active.chat_type !== 'telegram' && active.chat_type !== 'max') {
    problems.push({ field: 'active_chat.username', message: 'is allowed only for telegram and max; use chat_id' });
    return undefined;
  }
  const name = username?.replace(/^@/, '');
  return { ...rest, chat_id: chatId ?? name!, ...(name === undefined ? {} : { username: name }) };
}

/** A contact's chat handles as card chats; none when there is no contact (an unknown one is 404). */
async function contactChats(deps: LinkDeps, accountId: string, contactId: string | undefined): Promise<ChatRef[]> {
  if (contactId === undefined) return [];
  const [contact] = await deps.store.contactCards.getMany(accountId, [contactId]);
  if (!contact) throw new AppError('CONTACT_NOT_FOUND', 'Contact not found');
  // A card chat is named by one identifier: the messenger's id when the CRM knows it.
  return contact.contact_data.slice(0, maxCardChats).map((h): ChatRef => {
    if (h.chat_id !== undefined) return { chat_type: h.chat_type, chat_id: h.chat_id };
    return h.username !== undefined ? { chat_type: h.chat_type, username: h.username } : { chat_type: h.chat_type, phone: h.phone! };
  });
}

/** The chat frame: every chat of the account (global), or only the chats of one CRM card. */
export async function createChatsLink(deps: LinkDeps, accountId: string, body: CreateChatsLinkBody, mintedBy: string | null = null, scopes: FrameGrant['scopes'] = null): Promise<IframeLink> {
  const problems: FieldError[] = [];
  const embedUser = userOf(body);
  if (isProblem(embedUser)) problems.push(embedUser);
  else if (embedUser === undefined) problems.push({ field: 'user_id', message: 'is required (or user.id)' });
  if (body.scope === 'card' && !body.chats && body.contact_id === undefined) problems.push({ field: 'chats', message: 'is required for the card scope' });
  if (body.scope === 'global' && body.chats) problems.push({ field: 'chats', message: 'is not allowed for the global scope' });
  if (body.scope === 'global' && body.contact_id !== undefined) problems.push({ field: 'contact_id', message: 'is not allowed for the global scope' });
  const chats = [...(body.chats ?? []), ...(await contactChats(deps, accountId, body.contact_id))];
  problems.push(...checkChats(chats));
  const active = activeChatOf(body.active_chat, problems);
  if (active && body.scope === 'card' && problems.length === 0) {
    const wanted = new Set(chatKeys(active));
    if (!chats.some((c) => chatKeys(c).some((k) => wanted.has(k)))) {
      problems.push({ field: 'active_chat', message: 'must be one of chats' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
  if (active?.channel_id) await requireChannel(deps, accountId, active.channel_id);

  const user = await rememberUser(deps, accountId, embedUser as EmbedUser);
  const named = new Map<string, ContactRecord>();
  for (const chat of chats) {
    const key = singleKey(chat);
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
      chats: chats.map(primaryRef),
      activeChat: active ?? null,
      transport: null,
      channelId: null,
      options: body.options ?? {},
      mintedBy,
      scopes,
      useEvents: sessionEvents(body.use_events),
      clientType: body.client_type ?? null,
    },
    'chats',
  );
}

/** The connect frame: connect a new channel (optionally of a preselected transport) or reconnect one. */
export async function createChannelsLink(deps: LinkDeps, accountId: string, body: CreateChannelsLinkBody, mintedBy: string | null = null, scopes: FrameGrant['scopes'] = null): Promise<IframeLink> {
  const { transport: optionTransport, channel_id: optionChannel, ...options } = body.options ?? {};
  const problems: FieldError[] = [];
  if (body.transport && optionTransport && body.transport !== optionTransport) problems.push({ field: 'options.transport', message: 'differs from transport' });
  if (body.channel_id && optionChannel && body.channel_id !== optionChannel) problems.push({ field: 'options.channel_id', message: 'differs from channel_id' });
  const embedUser = userOf(body);
  if (isProblem(embedUser)) problems.push(embedUser);
  if (problems.length > 0) throw validationError(problems);
  let transport = body.transport ?? optionTransport ?? null;
  const channelId = body.channel_id ?? optionChannel ?? null;
  if (channelId) {
    const channel = await requireChannel(deps, accountId, channelId);
    if (transport && transport !== channel.transport) {
      throw validationError([{ field: 'transport', message: `must match the channel's transport (${channel.transport})` }]);
    }
    transport = channel.transport;
  }
  const user = await rememberUser(deps, accountId, embedUser as EmbedUser | undefined);
  return issue(
    deps,
    { accountId, kind: 'channels', user, scope: null, chats: [], activeChat: null, transport, channelId, options, clientType: body.client_type ?? null, mintedBy, scopes },
    'channels',
  );
}

