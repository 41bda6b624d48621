import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import type { ChatRecord, ClaimedSend, MessageDeps, MessageRecord, SendOutcome } from '../../core/messages/ports.ts';
import { startSendLoop, type SendLoop } from './send-messages.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

const channel = { id: 'channel-1', transport: 'whatsapp', state: { status: 'active', reason: null } } as unknown as ChannelRecord;

function head(n: number): ClaimedSend {
  const chat = { id: `chat-${n}`, chatType: 'user', chatId: `7900000000${n}`, username: null, phone: null } as unknown as ChatRecord;
  const message = { id: `m-${n}`, requestId: `r-${n}`, chatRef: chat.id, status: 'accepted', quotedMessageId: null } as unknown as MessageRecord;
  return { message, chat, channel, attempt: 1 };
}

/**
 * A send loop over a queue in memory: `due` holds the heads a claim would find, the driver answers only when
 * the test says so (a batch stays in flight until then), and every claim is recorded with what it took.
 */
function harness(claimSpacingMs: number) {
  const due: ClaimedSend[] = [];
  const claims: string[][] = [];
  const unanswered: (() => void)[] = [];
  const outcome: SendOutcome = { kind: 'sent', messengerMessageId: 'x', chatId: 'c', delivered: false } as SendOutcome;
  const deps = {
    clock: { now: () => at },
    driver: { send: () => new Promise<SendOutcome>((resolve) => unanswered.push(() => resolve(outcome))) },
    store: {
      messages: { get: async () => undefined },
      sends: {
        claim: async ({ limit }: { limit: number }) => {
          const taken = due.splice(0, limit);
          claims.push(taken.map((c) => c.message.id));
          return taken;
        },
        recordAnswers: async () => {},
        retryLater: async () => {},
      },
    },
  } as unknown as MessageDeps;
  const loop: SendLoop = startSendLoop(deps, { claimSpacingMs, idlePollMs: 60_000, onError: (err) => { throw err; } });
  return {
    loop,
    claims,
    /** Heads come due and the loop is told, as an accepted batch does. */
    accept(...n: number[]) {
      due.push(...n.map(head));
      loop.wake();
    },
    answerAll() {
      for (const answer of unanswered.splice(0)) answer();
    },
  };
}

describe('the send loop', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('claims at once when idle, and while sends are in flight gathers heads that come due into one claim', async () => {
    const h = harness(4);
    await vi.advanceTimersByTimeAsync(1); // the first look finds nothing
    expect(h.claims).toEqual([[]]);

    h.accept(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.claims.at(-1)).toEqual(['m-1']); // idle: no wait

    // m-1 is still with the messenger: sends accepted one by one wait for the spacing and go as one claim.
    h.accept(2);
    await vi.advanceTimersByTimeAsync(1);
    h.accept(3);
    await vi.advanceTimersByTimeAsync(1);
    h.accept(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.claims).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2);
    expect(h.claims).toHaveLength(3);
    expect(h.claims.at(-1)).toEqual(['m-2', 'm-3', 'm-4']);

    // Everything answered and recorded: the loop is idle again and the next send is claimed at once.
    h.answerAll();
    await vi.advanceTimersByTimeAsync(0);
    const before = h.claims.length;
    h.accept(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.claims.slice(before).flat()).toEqual(['m-5']);

    h.answerAll();
    const stopped = h.loop.stop(1_000);
    await vi.advanceTimersByTimeAsync(10);
    await stopped;
  });

  it('without spacing claims on every wake, one head at a time', async () => {
    const h = harness(0);
    await vi.advanceTimersByTimeAsync(1);
    h.accept(1);
    await vi.advanceTimersByTimeAsync(0);
    for (const n of [2, 3, 4]) {
      h.accept(n);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(h.claims.filter((c) => c.length > 0)).toEqual([['m-1'], ['m-2'], ['m-3'], ['m-4']]);
    h.answerAll();
    const stopped = h.loop.stop(1_000);
    await vi.advanceTimersByTimeAsync(10);
    await stopped;
  });
});
