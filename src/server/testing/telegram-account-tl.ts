import { createHash } from 'node:crypto';
import { Long, tl } from '@mtcute/core';

/**
 * The Telegram account fake's model (users, groups, messages and their reactions) and the TL objects Telegram sends
 * of it, as mtcute's schema names them.
 */

export type Obj = Record<string, unknown> & { _: string };

export interface FakeUser {
  id: number;
  firstName: string;
  lastName?: string;
  username?: string;
  phone?: string;
}

export interface FakeGroup {
  id: number;
  title: string;
  members: number[];
}

/** One user's reaction to a message (Telegram keeps it per user; a premium user's extra ones are not modelled). */
export interface StoredReaction {
  userId: number;
  emoticon: string;
  date: number;
}

export interface StoredMessage {
  id: number;
  peer: Obj;
  fromId?: number;
  out: boolean;
  text: string;
  date: number;
  replyTo?: number;
  media?: Obj;
  editDate?: number;
  deleted?: boolean;
  action?: Obj;
  reactions?: StoredReaction[];
}

/** Telegram's refusal as the library makes it of the wire's `rpc_error` (FLOOD_WAIT_3 becomes FLOOD_WAIT_%d with its seconds). */
const { RpcError } = tl as unknown as { RpcError: { fromTl(obj: unknown): Error } };
export const rpcError = (code: number, text: string) => RpcError.fromTl({ _: 'rpc_error', errorCode: code, errorMessage: text });

/** A seeded source of bytes (tokens, salts, secrets), so that runs repeat. */
export function seeded(seed: string) {
  let counter = 0;
  return () => createHash('sha256').update(`${seed}/${counter++}`).digest();
}

export const tlUser = (u: FakeUser, selfId: number): Obj => ({
  _: 'user',
  id: u.id,
  accessHash: Long.fromNumber(u.id * 7),
  firstName: u.firstName,
  ...(u.lastName ? { lastName: u.lastName } : {}),
  ...(u.username ? { username: u.username } : {}),
  ...(u.phone ? { phone: u.phone } : {}),
  ...(u.id === selfId ? { self: true } : {}),
});

export const tlChat = (c: FakeGroup): Obj => ({ _: 'chat', id: c.id, title: c.title, photo: { _: 'chatPhotoEmpty' }, participantsCount: c.members.length, date: 0, version: 1 });

/**
 * A message's reactions as Telegram gives them in a private chat (`messageReactions`): the count of each emoji, the
 * account's own marked by `chosenOrder`, and who reacted (`recentReactions`, newest first: Telegram lists them in
 * private chats, `canSeeList`), the others' unread by the account. None: the field is left out.
 */
export function tlReactions(reactions: StoredReaction[] | undefined, selfId: number): Obj | undefined {
  if (!reactions || reactions.length === 0) return undefined;
  const emoji = (emoticon: string) => ({ _: 'reactionEmoji', emoticon });
  const counts = new Map<string, { count: number; mine: boolean }>();
  for (const r of reactions) {
    const c = counts.get(r.emoticon) ?? { count: 0, mine: false };
    counts.set(r.emoticon, { count: c.count + 1, mine: c.mine || r.userId === selfId });
  }
  return {
    _: 'messageReactions',
    canSeeList: true,
    results: [...counts].map(([emoticon, c]) => ({ _: 'reactionCount', reaction: emoji(emoticon), count: c.count, ...(c.mine ? { chosenOrder: 0 } : {}) })),
    recentReactions: [...reactions]
      .sort((a, b) => b.date - a.date)
      .map((r) => ({
        _: 'messagePeerReaction',
        peerId: { _: 'peerUser', userId: r.userId },
        date: r.date,
        reaction: emoji(r.emoticon),
        ...(r.userId === selfId ? { my: true } : { unread: true }),
      })),
  };
}

export const tlMessage = (m: StoredMessage, selfId: number): Obj => {
  if (m.action) return { _: 'messageService', id: m.id, peerId: m.peer, fromId: { _: 'peerUser', userId: m.fromId }, out: m.out, date: m.date, action: m.action };
  const reactions = tlReactions(m.reactions, selfId);
  return {
    _: 'message',
    id: m.id,
    peerId: m.peer,
    ...(m.fromId !== undefined && m.peer._ === 'peerChat' ? { fromId: { _: 'peerUser', userId: m.fromId } } : {}),
    out: m.out,
    date: m.date,
    message: m.text,
    ...(m.replyTo ? { replyTo: { _: 'messageReplyHeader', replyToMsgId: m.replyTo } } : {}),
    ...(m.media ? { media: m.media } : {}),
    ...(m.editDate ? { editDate: m.editDate } : {}),
    ...(reactions ? { reactions } : {}),
  };
};

/** Sets (or with null takes back) one user's reaction to a message; answers whether it changed anything. */
export function setReaction(message: StoredMessage, userId: number, emoticon: string | null, date: number): boolean {
  const others = (message.reactions ?? []).filter((r) => r.userId !== userId);
  const before = message.reactions?.find((r) => r.userId === userId)?.emoticon ?? null;
  message.reactions = emoticon ? [...others, { userId, emoticon, date }] : others;
  return before !== emoticon;
}
