import { Long } from '@mtcute/core';
import { telegramConnections } from './telegram-account-connections.ts';
import { srpVerifier } from './telegram-account-srp.ts';
import { rpcError, seeded, setReaction, tlChat, tlMessage as tlMessageOf, tlUser as tlUserOf, type FakeGroup, type FakeUser, type Obj, type StoredMessage } from './telegram-account-tl.ts';

export type { FakeUser } from './telegram-account-tl.ts';

/**
 * Telegram as one personal account's clients see it, for tests: the real client library (mtcute) runs with no server
 * (`StubTelegramClient`), and every API call it makes is answered here, from a small model of Telegram's state:
 * users, a login-token state, the account's password (checked by SRP), a message store with reactions, and the
 * account's update log numbered by pts, from which `updates.getDifference` answers what a client missed; customers
 * write, react and type as Telegram tells an account. What it cannot show: the connection itself (key exchange,
 * reconnects, data-centre moves) and files beyond a small upload. The TL shapes are in telegram-account-tl.ts, the
 * clients and their network faults in telegram-account-connections.ts.
 */

/**
 * After `after` wrong two-factor passwords in a row, Telegram answers `auth.checkPassword` with FLOOD_WAIT_`seconds`
 * until that wait is over (it does not say after how many; a few, in practice).
 */
export interface PasswordFlood {
  after: number;
  seconds: number;
}

export function telegramAccountFake(options: { self: FakeUser; password?: string; seed?: string; passwordFlood?: PasswordFlood }) {
  const bytes = seeded(options.seed ?? 'telegram-account-fake');
  const users = new Map<number, FakeUser>([[options.self.id, options.self]]);
  const chats = new Map<number, FakeGroup>();
  const messages = new Map<number, StoredMessage>();
  /** The reactions the account set (`messages.sendReaction`) and the peers it was shown typing to, in order. */
  const reactions: { id: number; reaction: Obj[] }[] = [];
  const typing: Obj[] = [];
  /** The account's update log: entry i has pts i + 1. */
  const log: Obj[] = [];
  let lastMessageId = 0;
  let password = options.password ? srpVerifier(options.password, bytes) : null;
  const login = { scannedBy: null as number | null, authorized: false, ended: false };
  const passwordFlood = options.passwordFlood ?? { after: 5, seconds: 3600 };
  const wrongPasswords = { inARow: 0, floodUntil: 0 };
  const calls: Obj[] = [];
  const failures = new Map<string, string[]>();
  const connections = telegramConnections((query) => answer(query));

  const now = () => Math.floor(Date.now() / 1000);
  const tlUser = (u: FakeUser) => tlUserOf(u, options.self.id);
  const tlMessage = (m: StoredMessage) => tlMessageOf(m, options.self.id);
  const everyone = () => ({ users: [...users.values()].map(tlUser), chats: [...chats.values()].map(tlChat) });

  /** Appends to the update log and, with a client connected, pushes it as Telegram does. */
  const record = (update: Obj): Obj => {
    const entry = { ...update, pts: log.length + 1, ptsCount: 1 };
    log.push(entry);
    return entry;
  };
  const push = (updates: Obj[]) => {
    const client = connections.current();
    if (client && login.authorized && !login.ended) client.onServerUpdate.emit({ _: 'updates', updates, ...everyone(), date: now(), seq: 0 } as never);
  };
  /** An update with no place in the log (no pts), as Telegram sends one alone: `updateShort`. */
  const pushShort = (update: Obj) => {
    const client = connections.current();
    if (client && login.authorized && !login.ended) client.onServerUpdate.emit({ _: 'updateShort', update, date: now() } as never);
  };
  const newMessage = (m: Omit<StoredMessage, 'id' | 'date'>): { message: StoredMessage; update: Obj } => {
    const message = { ...m, id: ++lastMessageId, date: now() };
    messages.set(message.id, message);
    return { message, update: record({ _: 'updateNewMessage', message: tlMessage(message) }) };
  };
  const peerOf = (input: Obj): Obj => {
    if (input._ === 'inputPeerUser') return { _: 'peerUser', userId: input.userId };
    if (input._ === 'inputPeerChat') return { _: 'peerChat', chatId: input.chatId };
    throw rpcError(400, 'PEER_ID_INVALID');
  };
  const sent = (message: StoredMessage, update: Obj, randomId: unknown): Obj => ({
    _: 'updates',
    updates: [{ _: 'updateMessageID', id: message.id, randomId }, update],
    ...everyone(),
    date: now(),
    seq: 0,
  });
  /**
   * Telegram keeps one message per random id: a send repeated with one already used is refused with
   * RANDOM_ID_DUPLICATE (its documented answer), and the message made the first time stays the only one.
   */
  const byRandomId = new Map<string, StoredMessage>();
  const once = (randomId: unknown, make: () => { message: StoredMessage; update: Obj }): Obj => {
    const key = String(randomId);
    if (byRandomId.has(key)) throw rpcError(400, 'RANDOM_ID_DUPLICATE');
    const made = make();
    byRandomId.set(key, made.message);
    return sent(made.message, made.update, randomId);
  };
  const inChat = (m: StoredMessage, peer: Obj) => (peer._ === 'peerUser' ? m.peer._ === 'peerUser' && m.peer.userId === peer.userId : m.peer._ === 'peerChat' && m.peer.chatId === peer.chatId);
  const resolved = (user: FakeUser | undefined): Obj => {
    if (!user) throw rpcError(400, 'USERNAME_NOT_OCCUPIED');
    return { _: 'contacts.resolvedPeer', peer: { _: 'peerUser', userId: user.id }, users: [tlUser(user)], chats: [] };
  };
  /** The bytes of each file uploaded so far, by its id. */
  const uploads = new Map<string, Buffer>();

  const methods: Record<string, (q: Obj) => Obj | Obj[] | boolean> = {
    'auth.exportLoginToken': () => {
      if (login.scannedBy !== null) {
        if (password) throw rpcError(401, 'SESSION_PASSWORD_NEEDED');
        login.authorized = true;
        return { _: 'auth.loginTokenSuccess', authorization: { _: 'auth.authorization', user: tlUser(users.get(login.scannedBy)!) } };
      }
      return { _: 'auth.loginToken', expires: now() + 30, token: bytes().subarray(0, 24) };
    },
    'account.getPassword': () => {
      if (!password) return { _: 'account.password', hasPassword: false, newAlgo: { _: 'passwordKdfAlgoUnknown' }, newSecureAlgo: { _: 'securePasswordKdfAlgoUnknown' }, secureRandom: bytes() };
      const c = password.challenge();
      return {
        _: 'account.password',
        hasPassword: true,
        currentAlgo: { _: 'passwordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow', ...c.algo },
        srpB: c.srpB,
        srpId: Long.fromString(c.srpId.toString()),
        newAlgo: { _: 'passwordKdfAlgoUnknown' },
        newSecureAlgo: { _: 'securePasswordKdfAlgoUnknown' },
        secureRandom: bytes(),
      };
    },
    'auth.checkPassword': (q) => {
      const wait = Math.ceil((wrongPasswords.floodUntil - Date.now()) / 1000);
      if (wait > 0) throw rpcError(420, `FLOOD_WAIT_${wait}`);
      const proof = q.password as { srpId: Long; A: Uint8Array; M1: Uint8Array };
      if (!password?.check({ srpId: BigInt(proof.srpId.toString()), A: proof.A, M1: proof.M1 })) {
        if (++wrongPasswords.inARow >= passwordFlood.after) {
          wrongPasswords.inARow = 0;
          wrongPasswords.floodUntil = Date.now() + passwordFlood.seconds * 1000;
        }
        throw rpcError(400, 'PASSWORD_HASH_INVALID');
      }
      wrongPasswords.inARow = 0;
      login.authorized = true;
      return { _: 'auth.authorization', user: tlUser(users.get(login.scannedBy ?? options.self.id)!) };
    },
    'users.getUsers': (q) => (q.id as Obj[]).map((input) => tlUser(users.get(input._ === 'inputUserSelf' ? options.self.id : Number(input.userId))!)),
    'updates.getState': () => ({ _: 'updates.state', pts: log.length, qts: 0, date: now(), seq: 0, unreadCount: 0 }),
    'updates.getDifference': (q) => {
      const from = Number(q.pts);
      const state = { _: 'updates.state', pts: log.length, qts: 0, date: now(), seq: 0, unreadCount: 0 };
      if (from >= log.length) return { _: 'updates.differenceEmpty', date: now(), seq: 0 };
      const missed = log.slice(from);
      const newMessages = missed.filter((u) => u._ === 'updateNewMessage').map((u) => u.message as Obj);
      return { _: 'updates.difference', newMessages, newEncryptedMessages: [], otherUpdates: missed.filter((u) => u._ !== 'updateNewMessage'), ...everyone(), state };
    },
    'contacts.resolveUsername': (q) => resolved([...users.values()].find((u) => u.username === q.username)),
    'contacts.resolvePhone': (q) => {
      const user = [...users.values()].find((u) => u.phone === q.phone);
      if (!user) throw rpcError(400, 'PHONE_NOT_OCCUPIED');
      return resolved(user);
    },
    'messages.sendMessage': (q) =>
      once(q.randomId, () => {
        const replyTo = (q.replyTo as Obj | undefined)?.replyToMsgId as number | undefined;
        return newMessage({ peer: peerOf(q.peer as Obj), fromId: options.self.id, out: true, text: String(q.message), ...(replyTo ? { replyTo } : {}) });
      }),
    'upload.saveFilePart': (q) => {
      uploads.set(String(q.fileId), Buffer.concat([uploads.get(String(q.fileId)) ?? Buffer.alloc(0), q.bytes as Uint8Array]));
      return true;
    },
    'messages.sendMedia': (q) => {
      const media = q.media as Obj;
      const file = media.file as Obj;
      if (!uploads.has(String(file.id))) throw rpcError(400, 'FILE_PART_0_MISSING');
      const stored: Obj = { _: 'messageMediaDocument', document: { _: 'document', id: Long.fromNumber(++lastMessageId * 11), accessHash: Long.ZERO, fileReference: new Uint8Array(), date: now(), mimeType: String(media.mimeType ?? 'image/jpeg'), size: Long.fromNumber(uploads.get(String(file.id))!.length), dcId: 2, attributes: [{ _: 'documentAttributeFilename', fileName: String(file.name) }] }, sentAs: media._, sentAttributes: media.attributes ?? [], sentBytes: uploads.get(String(file.id)) };
      return once(q.randomId, () => newMessage({ peer: peerOf(q.peer as Obj), fromId: options.self.id, out: true, text: String(q.message ?? ''), media: stored }));
    },
    'messages.getHistory': (q) => {
      const peer = peerOf(q.peer as Obj);
      const found = [...messages.values()]
        .filter((m) => !m.deleted && inChat(m, peer))
        .sort((a, b) => b.id - a.id)
        .slice(0, Number(q.limit) || 100);
      return { _: 'messages.messages', messages: found.map(tlMessage), topics: [], ...everyone() };
    },
    'messages.editMessage': (q) => {
      const message = messages.get(Number(q.id));
      if (!message || message.deleted) throw rpcError(400, 'MESSAGE_ID_INVALID');
      if (message.text === q.message) throw rpcError(400, 'MESSAGE_NOT_MODIFIED');
      Object.assign(message, { text: String(q.message), editDate: now() });
      const update = record({ _: 'updateEditMessage', message: tlMessage(message) });
      return { _: 'updates', updates: [update], ...everyone(), date: now(), seq: 0 };
    },
    'messages.sendReaction': (q) => {
      const message = messages.get(Number(q.msgId));
      if (!message || message.deleted) throw rpcError(400, 'MESSAGE_ID_INVALID');
      const reaction = (q.reaction as Obj[] | undefined) ?? [];
      reactions.push({ id: Number(q.msgId), reaction });
      setReaction(message, options.self.id, reaction[0]?._ === 'reactionEmoji' ? String(reaction[0].emoticon) : null, now());
      const update = record({ _: 'updateEditMessage', message: { ...tlMessage(message), editHide: true } });
      return { _: 'updates', updates: [update], ...everyone(), date: now(), seq: 0 };
    },
    'messages.setTyping': (q) => {
      typing.push(peerOf(q.peer as Obj));
      return true;
    },
    'messages.deleteMessages': (q) => {
      for (const id of q.id as number[]) messages.get(id)!.deleted = true;
      const update = record({ _: 'updateDeleteMessages', messages: q.id });
      return { _: 'messages.affectedMessages', pts: update.pts, ptsCount: 1 };
    },
    'auth.logOut': () => {
      login.ended = true;
      return { _: 'auth.loggedOut' };
    },
  };

  function answer(query: Obj): Obj | Obj[] | boolean {
    calls.push(query);
    const failure = failures.get(query._)?.shift();
    if (failure) throw rpcError(failure.startsWith('FLOOD_WAIT') ? 420 : 400, failure);
    if (login.ended && query._ !== 'auth.logOut') throw rpcError(401, 'AUTH_KEY_UNREGISTERED');
    const method = methods[query._];
    if (!method) throw rpcError(400, `METHOD_NOT_IN_FAKE_${query._}`);
    return method(query);
  }

  const clients = connections.clientsOf('');

  return {
    clients,
    clientsOf: connections.clientsOf,
    reactions,
    typing,
    /** The process `label` is gone (killed): its clients' calls fail, and nothing is pushed to them any more. */
    sever: connections.sever,
    /** The next `method` from process `label` is done by Telegram, then the process dies (`crash`) before the answer. */
    crashAfter: connections.crashAfter,
    /** The next `method` is done by Telegram, and its answer lost on the way (the process lives on). */
    loseAnswerOf: connections.loseAnswerOf,
    /** Telegram's network drops everything: calls made meanwhile wait until `reachable()` (then they go through). */
    unreachable: connections.unreachable,
    reachable: connections.reachable,
    /** Clients made and not closed yet. */
    get openClients() {
      return connections.openClients();
    },
    callers: connections.callers,
    duplicated: connections.duplicated,
    calls,
    messages,
    addUser(user: FakeUser) {
      users.set(user.id, user);
    },
    addGroup(group: { id: number; title: string; members: number[] }) {
      chats.set(group.id, group);
    },
    /** The account's phone scans the QR: Telegram tells the client its token was used. */
    scan(userId = options.self.id) {
      login.scannedBy = userId;
      connections.current()?.onServerUpdate.emit({ _: 'updateShort', update: { _: 'updateLoginToken' }, date: now() } as never);
    },
    setPassword(next: string | null) {
      password = next ? srpVerifier(next, bytes) : null;
    },
    /** A customer writes to the account (privately, or in a group: `groupId`). */
    customerWrites(userId: number, text: string, extra: { groupId?: number; replyTo?: number } = {}) {
      const peer = extra.groupId ? { _: 'peerChat', chatId: extra.groupId } : { _: 'peerUser', userId };
      const { message, update } = newMessage({ peer, fromId: userId, out: false, text, ...(extra.replyTo ? { replyTo: extra.replyTo } : {}) });
      push([update]);
      return message.id;
    },
    /** A customer sends a file (a document), with a caption or without. */
    customerSendsFile(userId: number, file: { name: string; mimeType: string; size: number }, caption = '') {
      const document = { _: 'document', id: Long.fromNumber(900_000 + messages.size), accessHash: Long.ZERO, fileReference: new Uint8Array(), date: now(), mimeType: file.mimeType, size: Long.fromNumber(file.size), dcId: 2, attributes: [{ _: 'documentAttributeFilename', fileName: file.name }] };
      const { message, update } = newMessage({ peer: { _: 'peerUser', userId }, fromId: userId, out: false, text: caption, media: { _: 'messageMediaDocument', document } });
      push([update]);
      return message.id;
    },
    /** The account's owner writes from another device (the phone). */
    ownerWrites(userId: number, text: string) {
      const { message, update } = newMessage({ peer: { _: 'peerUser', userId }, fromId: options.self.id, out: true, text });
      push([update]);
      return message.id;
    },
    membersJoin(groupId: number, actor: number, userIds: number[]) {
      chats.get(groupId)!.members.push(...userIds);
      const { update } = newMessage({ peer: { _: 'peerChat', chatId: groupId }, fromId: actor, out: false, text: '', action: { _: 'messageActionChatAddUser', users: userIds } });
      push([update]);
    },
    edit(id: number, text: string) {
      const message = messages.get(id)!;
      Object.assign(message, { text, editDate: now() });
      push([record({ _: 'updateEditMessage', message: tlMessage(message) })]);
    },
    remove(id: number) {
      messages.get(id)!.deleted = true;
      push([record({ _: 'updateDeleteMessages', messages: [id] })]);
    },
    /** The customer read the account's messages up to `maxId`. */
    read(userId: number, maxId: number) {
      push([record({ _: 'updateReadHistoryOutbox', peer: { _: 'peerUser', userId }, maxId })]);
    },
    /**
     * A customer reacts to a message of their private chat with the account (null takes the reaction back). Telegram
     * tells the account as the message edited without an edit mark (`updateEditMessage`, `edit_hide`), its reactions
     * as they are now; or, `via: 'updateMessageReactions'`, by that update (no pts), which it sends in other cases.
     */
    customerReacts(userId: number, id: number, emoticon: string | null, via: 'updateEditMessage' | 'updateMessageReactions' = 'updateEditMessage') {
      const message = messages.get(id)!;
      if (!setReaction(message, userId, emoticon, now())) return;
      const { reactions: shown } = tlMessage(message);
      if (via === 'updateMessageReactions') push([{ _: 'updateMessageReactions', peer: { _: 'peerUser', userId }, msgId: id, reactions: shown ?? { _: 'messageReactions', results: [], canSeeList: true, recentReactions: [] } }]);
      else push([record({ _: 'updateEditMessage', message: { ...tlMessage(message), editHide: true } })]);
    },
    /**
     * A customer's typing status in their private chat (`updateUserTyping`): `sendMessageTypingAction` while they
     * type (their app repeats it every few seconds), `sendMessageRecordAudioAction` while recording a voice note,
     * `sendMessageCancelAction` when they stop.
     */
    customerTyping(userId: number, action: 'sendMessageTypingAction' | 'sendMessageRecordAudioAction' | 'sendMessageCancelAction' = 'sendMessageTypingAction') {
      pushShort({ _: 'updateUserTyping', userId, action: { _: action } });
    },
    /** The next calls of `method` are refused with these errors (`FLOOD_WAIT_3`, `PRIVACY_PREMIUM_REQUIRED`…). */
    failNext(method: string, ...errors: string[]) {
      failures.set(method, [...(failures.get(method) ?? []), ...errors]);
    },
    /** The session is terminated from the phone: every call is refused, and the client is told to catch up. */
    endSession() {
      login.ended = true;
      connections.current()?.onServerUpdate.emit({ _: 'updatesTooLong' } as never);
    },
    /** The client in use goes away (the gateway stopped): what happens meanwhile waits in the log. */
    disconnect: connections.disconnect,
    get pts() {
      return log.length;
    },
  };
}

export type TelegramAccountFake = ReturnType<typeof telegramAccountFake>;
