import { describe, expect, it } from 'vitest';
import type { Store } from '../ports.ts';
import { acceptCommitter, type AcceptDraft } from './accept-batch.ts';
import type { MessageDeps } from './ports.ts';

const at = new Date('2026-03-01T10:00:00Z');

function draft(text: string): AcceptDraft {
  return {
    accountId: 'acc',
    channelId: 'chan',
    recipient: { chatType: 'whatsapp', chatId: `7900${text.length}`, username: null, phone: null, name: null },
    message: {
      id: `m-${text}`,
      requestId: `r-${text}`,
      accountId: 'acc',
      channelId: 'chan',
      direction: 'outbound',
      status: 'accepted',
      reason: null,
      text,
      attachment: null,
      template: null,
      keyboard: null,
      quotedMessageId: null,
      crmUserId: null,
      resetUnanswered: true,
      messengerMessageId: null,
      createdAt: at,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      editedAt: null,
      deletedAt: null,
    },
  };
}

/**
 * A store whose statements wait until the test lets them commit, and whose database refuses a message with
 * the text `refused`. It notes the texts of every committed statement.
 */
function heldStore() {
  const committed: string[][] = [];
  const gates: (() => void)[] = [];
  const store = {
    sends: {
      async acceptToKnownChats(_chats: unknown, messages: { message: { text: string | null } }[]) {
        await new Promise<void>((resolve) => gates.push(resolve));
        if (messages.some((m) => m.message.text === 'refused')) throw new Error('check constraint violated');
        committed.push(messages.map((m) => m.message.text ?? ''));
      },
    },
  } as unknown as Store;
  const deps = { store, clock: { now: () => at } } as unknown as MessageDeps;
  return {
    deps,
    committed,
    /** Lets the oldest waiting statement run, once it waits. */
    async release() {
      while (gates.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      gates.shift()!();
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

const settled = (p: Promise<void>) => {
  const state = { done: false, error: null as unknown };
  p.then(
    () => (state.done = true),
    (err: unknown) => (state.error = err),
  );
  return state;
};

describe('group commit of accepted sends', () => {
  it('stores the sends that arrive during a commit together in the next transaction, answering each after its own commit', async () => {
    const { deps, committed, release } = heldStore();
    const committer = acceptCommitter(deps, { flushes: 1 });
    const first = settled(committer.commit(draft('a')));
    await release(); // the first statement takes `a` …
    const later = ['b', 'cc', 'ddd'].map((t) => settled(committer.commit(draft(t))));
    expect(first.done).toBe(true);
    expect(later.some((s) => s.done)).toBe(false); // … while b, cc, ddd wait for the next one
    await release();
    expect(later.every((s) => s.done)).toBe(true);
    expect(committed).toEqual([['a'], ['b', 'cc', 'ddd']]);
  });

  it('fails only the request whose send the database refuses; the others of its batch are stored', async () => {
    const { deps, committed, release } = heldStore();
    const committer = acceptCommitter(deps, { flushes: 1 });
    settled(committer.commit(draft('a')));
    await release();
    const [ok1, bad, ok2] = ['b', 'refused', 'dd'].map((t) => settled(committer.commit(draft(t))));
    await release(); // the batch of three fails as a whole …
    for (let i = 0; i < 3; i++) await release(); // … and is tried again one send at a time
    expect(ok1!.done && ok2!.done).toBe(true);
    expect((bad!.error as Error).message).toBe('check constraint violated');
    expect(committed).toEqual([['a'], ['b'], ['dd']]);
  });

  it('with no database to be had, fails the waiting sends instead of retrying forever', async () => {
    const store = { sends: { acceptToKnownChats: async () => Promise.reject(new Error('connection refused')) } } as unknown as Store;
    const committer = acceptCommitter({ store, clock: { now: () => at } } as unknown as MessageDeps, { flushes: 1 });
    await expect(Promise.all([committer.commit(draft('a')), committer.commit(draft('b'))])).rejects.toThrow('connection refused');
  });
});
