import { randomUUID } from 'node:crypto';
import type { TransactionScope } from '../ports.ts';
import type { ChatRecord, KnownChatEffect, MessageDeps, MessageRecord } from './ports.ts';
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

/** The chats of pending sends (username or phone): one record per distinct recipient. */
async function pendingChats(tx: TransactionScope, deps: MessageDeps, drafts: AcceptDraft[]): Promise<ChatRecord[]> {
  const found = new Map<string, ChatRecord>();
  const chats: ChatRecord[] = [];
  for (const draft of drafts) {
    const to = draft.recipient;
    const key = `${draft.channelId}|${to.chatType}|${to.username ?? ''}|${to.phone ?? ''}`;
    if (!found.has(key)) found.set(key, await pendingChat(tx, deps, draft));
    chats.push(found.get(key)!);
  }
  return chats;
}

/** Sends to pending chats, in one transaction: such a chat is looked up by name or phone, not by a unique key. */
async function storePending(tx: TransactionScope, deps: MessageDeps, drafts: AcceptDraft[]): Promise<void> {
  const chats = await pendingChats(tx, deps, drafts);
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
}

/** What a batch's sends do to each chat known by messenger id, in the order the sends came. */
function knownChatEffects(drafts: AcceptDraft[]): KnownChatEffect[] {
  const effects = new Map<string, KnownChatEffect>();
  for (const { accountId, channelId, recipient: to, message } of drafts) {
    const key = `${channelId}|${to.chatType}|${to.chatId}`;
    const before = effects.get(key);
    effects.set(key, {
      newId: before?.newId ?? randomUUID(),
      accountId,
      channelId,
      chatType: to.chatType,
      chatId: to.chatId!,
      name: to.name ?? before?.name ?? null,
      resetUnanswered: message.resetUnanswered || (before?.resetUnanswered ?? false),
      lastMessageAt: message.createdAt,
    });
  }
  return [...effects.values()];
}

/**
 * Stores a batch of checked sends (the messages `accepted`, which is what queues them): those to chats known
 * by messenger id with one atomic statement (chats found or created and updated, messages inserted), those to
 * a username or phone in one transaction. Resolves once both are committed; when one fails the other may have
 * committed, so a caller that retries passes the two kinds apart.
 */
export async function storeDrafts(deps: MessageDeps, drafts: AcceptDraft[]): Promise<void> {
  const known = drafts.filter((d) => d.recipient.chatId !== null);
  const pending = drafts.filter((d) => d.recipient.chatId === null);
  await Promise.all([
    known.length > 0
      ? deps.store.sends.acceptToKnownChats(
          knownChatEffects(known),
          known.map((d) => ({ message: d.message, chatType: d.recipient.chatType, chatId: d.recipient.chatId! })),
        )
      : null,
    pending.length > 0 ? deps.store.transaction((tx) => storePending(tx, deps, pending)) : null,
  ]);
}

interface Waiting {
  draft: AcceptDraft;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit: sends that arrive while a batch is being stored wait and are stored together in the next
 * one, with multi-row statements. Every caller is answered only after the statement or transaction holding
 * its draft has committed. A batch that fails is retried one draft at a time, so one bad draft fails only its
 * own request. `flushes` batches may be stored at once (one on the single-connection embedded database).
 */
export function acceptCommitter(deps: MessageDeps, options: { flushes: number; maxBatch?: number; committed?: () => void }): AcceptCommitter {
  const maxBatch = options.maxBatch ?? 200;
  const queue: Waiting[] = [];
  let running = 0;

  const store = (drafts: AcceptDraft[]) => storeDrafts(deps, drafts);

  /** Retried one by one, so that one bad draft fails only its own request. */
  async function oneByOne(batch: Waiting[]): Promise<void> {
    for (const w of batch) await store([w.draft]).then(w.resolve, w.reject);
  }

  async function commitGroup(group: Waiting[]): Promise<void> {
    try {
      await store(group.map((w) => w.draft));
      for (const w of group) w.resolve();
    } catch (err) {
      if (group.length === 1) group[0]!.reject(err);
      else await oneByOne(group);
    }
  }

  async function commitNext(): Promise<void> {
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    // Sends to known chats and to pending ones are stored apart (one statement, one transaction), so a
    // failure of one never leaves the other half-stored when it is retried one by one.
    const known = batch.filter((w) => w.draft.recipient.chatId !== null);
    const pending = batch.filter((w) => w.draft.recipient.chatId === null);
    await Promise.all([known, pending].filter((g) => g.length > 0).map(commitGroup));
    options.committed?.();
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
