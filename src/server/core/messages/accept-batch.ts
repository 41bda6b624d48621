import { randomUUID } from 'node:crypto';
import type { TransactionScope } from '../ports.ts';
import type { ChatRecord, MessageDeps, MessageRecord } from './ports.ts';
import type { CheckedRecipient } from './recipient.ts';

/** A checked send, ready to be stored: its message (without a chat yet) and where it goes. */
export interface AcceptDraft {
  accountId: string;
  channelId: string;
  recipient: CheckedRecipient;
  message: Omit<MessageRecord, 'chatRef'>;
}

/** Commits drafts; resolves once each is stored together with its send job. */
export interface AcceptCommitter {
  commit(draft: AcceptDraft): Promise<void>;
}

const knownKey = (channelId: string, chatType: string, chatId: string) => `${channelId}|${chatType}|${chatId}`;

/** The chat a pending send (username or phone, no messenger id yet) goes to. */
async function pendingChat(tx: TransactionScope, deps: MessageDeps, draft: AcceptDraft): Promise<ChatRecord> {
  const to = draft.recipient;
  const known = await tx.chats.findPending(draft.channelId, to.chatType, to.username !== null ? { username: to.username } : { phone: to.phone ?? '' });
  return known ?? tx.chats.insert(newChat(deps, draft));
}

function newChat(deps: MessageDeps, draft: AcceptDraft): ChatRecord {
  const to = draft.recipient;
  return {
    id: randomUUID(),
    accountId: draft.accountId,
    channelId: draft.channelId,
    chatType: to.chatType,
    chatId: to.chatId,
    username: to.username,
    phone: to.phone,
    name: to.name,
    unanswered: 0,
    lastMessageAt: null,
    createdAt: deps.clock.now(),
  };
}

/** Finds or creates the chats of a batch with one read and one insert per channel; one record per chat. */
async function chatsOf(tx: TransactionScope, deps: MessageDeps, drafts: AcceptDraft[]): Promise<ChatRecord[]> {
  const known = new Map<string, ChatRecord>();
  const channels = new Set(drafts.filter((d) => d.recipient.chatId !== null).map((d) => d.channelId));
  for (const channelId of channels) {
    const ofChannel = drafts.filter((d) => d.channelId === channelId && d.recipient.chatId !== null);
    const keys = [...new Map(ofChannel.map((d) => [knownKey(channelId, d.recipient.chatType, d.recipient.chatId!), d])).values()];
    const found = await tx.chats.findManyByMessengerIds(
      channelId,
      keys.map((d) => ({ chatType: d.recipient.chatType, chatId: d.recipient.chatId! })),
    );
    for (const chat of found) known.set(knownKey(channelId, chat.chatType, chat.chatId!), chat);
    // New chats in key order, so concurrent transactions creating the same chats wait on each other in one order.
    const missing = keys
      .filter((d) => !known.has(knownKey(channelId, d.recipient.chatType, d.recipient.chatId!)))
      .sort((a, b) => (a.recipient.chatId! < b.recipient.chatId! ? -1 : 1));
    for (const chat of await tx.chats.insertMany(missing.map((d) => newChat(deps, d)))) known.set(knownKey(channelId, chat.chatType, chat.chatId!), chat);
  }
  const pending = new Map<string, ChatRecord>();
  const chats: ChatRecord[] = [];
  for (const draft of drafts) {
    const to = draft.recipient;
    if (to.chatId !== null) {
      chats.push(known.get(knownKey(draft.channelId, to.chatType, to.chatId))!);
      continue;
    }
    const key = `${draft.channelId}|${to.chatType}|${to.username ?? ''}|${to.phone ?? ''}`;
    if (!pending.has(key)) pending.set(key, await pendingChat(tx, deps, draft));
    chats.push(pending.get(key)!);
  }
  return chats;
}

/**
 * Stores a batch of drafts in the caller's transaction: chats found or created, each chat updated once with the
 * effect of its drafts in order, the messages and their send jobs inserted in one statement each.
 */
export async function storeDrafts(tx: TransactionScope, deps: MessageDeps, drafts: AcceptDraft[]): Promise<void> {
  const chats = await chatsOf(tx, deps, drafts);
  const touched = new Map<string, ChatRecord>();
  const messages: MessageRecord[] = [];
  drafts.forEach((draft, i) => {
    const chat = touched.get(chats[i]!.id) ?? chats[i]!;
    touched.set(chat.id, {
      ...chat,
      name: draft.recipient.name ?? chat.name,
      unanswered: draft.message.resetUnanswered ? 0 : chat.unanswered,
      lastMessageAt: draft.message.createdAt,
    });
    messages.push({ ...draft.message, chatRef: chat.id });
  });
  await tx.chats.updateMany([...touched.values()]);
  await tx.messages.insertMany(messages);
  // One chat's sends leave in the order they were accepted: the queue keeps FIFO per chat.
  await tx.jobs.enqueueMany(
    'messages.send',
    messages.map((m) => ({ payload: { messageId: m.id }, options: { singletonKey: m.chatRef } })),
  );
}

interface Waiting {
  draft: AcceptDraft;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit: sends that arrive while a transaction is being committed wait and are stored together in the
 * next one, with multi-row statements. Every caller is answered only after the transaction holding its draft
 * has committed. A batch that fails is retried one draft at a time, so one bad draft fails only its own request.
 * `flushes` transactions may run at once (one on the single-connection embedded database).
 */
export function acceptCommitter(deps: MessageDeps, options: { flushes: number; maxBatch?: number; committed?: () => void }): AcceptCommitter {
  const maxBatch = options.maxBatch ?? 200;
  const queue: Waiting[] = [];
  let running = 0;

  const store = (drafts: AcceptDraft[]) => deps.store.transaction((tx) => storeDrafts(tx, deps, drafts));

  /** Retried one by one, so that one bad draft fails only its own request. */
  async function oneByOne(batch: Waiting[]): Promise<void> {
    for (const w of batch) await store([w.draft]).then(w.resolve, w.reject);
  }

  async function commitNext(): Promise<void> {
    let batch: Waiting[] = [];
    try {
      // The batch is taken once the transaction holds its connection: sends that arrived while it waited join it.
      await deps.store.transaction(async (tx) => {
        batch = queue.splice(0, maxBatch);
        if (batch.length > 0) await storeDrafts(tx, deps, batch.map((w) => w.draft));
      });
      for (const w of batch) w.resolve();
    } catch (err) {
      // No transaction at all (the database is unreachable): the waiting sends fail now rather than loop.
      if (batch.length === 0) for (const w of queue.splice(0, maxBatch)) w.reject(err);
      else if (batch.length === 1) batch[0]!.reject(err);
      else await oneByOne(batch);
    }
    if (batch.length > 0) options.committed?.();
  }

  async function drain(): Promise<void> {
    running++;
    try {
      while (queue.length > 0) {
        // Let requests waiting on I/O reach this queue first: an embedded database runs its queries on this
        // thread, and a transaction chained through promises alone would otherwise keep them out every time.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await commitNext();
      }
    } finally {
      running--;
    }
  }

  return {
    commit(draft) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ draft, resolve, reject });
        if (running < options.flushes) void drain();
      });
    },
  };
}
