import { describe, expect, it } from 'vitest';
import { coalescedAnnouncer, EVENTS_RECORDED, SENDS_ACCEPTED, type AnnouncerTimers, type Channel } from './notifications.ts';

/** Timers moved by hand: `advance` runs what came due, in order. */
function manualTimers(): AnnouncerTimers & { advance(ms: number): void } {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = next++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void due.delete(id as number),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const [id, first] = [...due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
        if (id === undefined || !first) break;
        due.delete(id);
        now = first.at;
        first.run();
      }
      now = until;
    },
  };
}

describe('announcing to other processes', () => {
  const setup = () => {
    const timers = manualTimers();
    const sent: { channel: Channel; at: number }[] = [];
    const inFlight: { resolve(): void; reject(err: Error): void }[] = [];
    const errors: unknown[] = [];
    const announcer = coalescedAnnouncer(
      (channel) => {
        sent.push({ channel, at: timers.now() });
        return new Promise<void>((resolve, reject) => inFlight.push({ resolve, reject }));
      },
      20,
      (err) => errors.push(err),
      timers,
    );
    /** The oldest send in flight answers. */
    const answer = async (err?: Error) => {
      const send = inFlight.shift();
      if (err) send?.reject(err);
      else send?.resolve();
      await new Promise((r) => setImmediate(r));
    };
    return { timers, sent, announcer, answer, errors };
  };

  it('sends a burst of announcements as one, at once when the channel was quiet', () => {
    const { timers, sent, announcer } = setup();
    for (let i = 0; i < 100; i++) announcer.announce(SENDS_ACCEPTED);
    expect(sent).toEqual([]);
    timers.advance(0);
    expect(sent).toEqual([{ channel: SENDS_ACCEPTED, at: 0 }]);
  });

  it('follows announcements made while one is on its way with one more, no sooner than the gap', async () => {
    const { timers, sent, announcer, answer } = setup();
    announcer.announce(SENDS_ACCEPTED);
    timers.advance(0);
    announcer.announce(SENDS_ACCEPTED);
    announcer.announce(SENDS_ACCEPTED);
    timers.advance(5);
    expect(sent).toHaveLength(1);
    await answer();
    timers.advance(14);
    expect(sent).toHaveLength(1);
    timers.advance(1);
    expect(sent).toEqual([
      { channel: SENDS_ACCEPTED, at: 0 },
      { channel: SENDS_ACCEPTED, at: 20 },
    ]);
    await answer();
    // Nothing was announced since: nothing more goes.
    timers.advance(1_000);
    expect(sent).toHaveLength(2);
  });

  it('keeps channels apart, and sends nothing once closed', async () => {
    const { timers, sent, announcer, answer } = setup();
    announcer.announce(SENDS_ACCEPTED);
    announcer.announce(EVENTS_RECORDED);
    timers.advance(0);
    expect(sent.map((s) => s.channel).sort()).toEqual([EVENTS_RECORDED, SENDS_ACCEPTED].sort());
    await answer();
    await answer();
    announcer.announce(EVENTS_RECORDED);
    announcer.close();
    announcer.announce(SENDS_ACCEPTED);
    timers.advance(1_000);
    expect(sent).toHaveLength(2);
  });

  it('reports a send that failed, and sends again at the next announcement', async () => {
    const { timers, sent, announcer, answer, errors } = setup();
    announcer.announce(SENDS_ACCEPTED);
    timers.advance(0);
    await answer(new Error('connection refused'));
    expect(errors).toEqual([new Error('connection refused')]);
    announcer.announce(SENDS_ACCEPTED);
    timers.advance(20);
    expect(sent).toHaveLength(2);
  });
});
