import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../core/events/record-event.ts';
import { systemClock, type EventRecord } from '../core/ports.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

/** A small seeded generator (mulberry32), so a failing interleaving can be run again. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Transactions that overlap need a server; the embedded database runs one at a time.
describe.skipIf(databaseKind() !== 'postgres')('the event stream under concurrent writers', () => {
  let t: TestGateway;
  let accountId: string;
  const consumed: EventRecord[] = [];

  beforeAll(async () => {
    t = await startTestGateway({ sinks: [{ name: 'probe', consume: async (events) => void consumed.push(...events) }] });
    ({ accountId } = await t.newAccount());
  });
  afterAll(() => t.close());

  it('hands every committed event once and no rolled-back one, whatever order the commits came in', async () => {
    const random = seeded(7);
    const committed: string[] = [];
    const rolledBack: string[] = [];
    const pause = () => new Promise((r) => setTimeout(r, Math.floor(random() * 15)));

    // Eight writers, each transaction recording one to three events and holding its positions for a while
    // before it commits (or, one in five, rolls back), so positions commit out of order.
    await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        for (let n = 0; n < 20; n++) {
          const events = 1 + Math.floor(random() * 3);
          const fail = random() < 0.2;
          const ids: string[] = [];
          await t.gateway.store
            .transaction(async (tx) => {
              for (let e = 0; e < events; e++) {
                ids.push((await recordEvent(tx, systemClock, { accountId, name: 'message.add', orderingKey: `chat:${writer}`, payload: { writer, n, e } })).id);
              }
              await pause();
              if (fail) throw new Error('rolled back on purpose');
            })
            .then(
              () => committed.push(...ids),
              () => rolledBack.push(...ids),
            );
        }
      }),
    );

    const handed = () => new Set(consumed.map((e) => e.id));
    await eventually(async () => (committed.every((id) => handed().has(id)) ? true : undefined), 15_000);
    expect(rolledBack.length).toBeGreaterThan(0);
    const ids = consumed.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => rolledBack.includes(id))).toEqual([]);
    expect([...handed()].sort()).toEqual([...committed].sort());
  });
});
