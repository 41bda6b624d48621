import { sql } from 'kysely';
import { recordEvent } from '../core/events/record-event.ts';
import type { EventRecord } from '../core/ports.ts';
import type { TestGateway } from './harness.ts';
import type { ManualClock } from './manual-clock.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits for a condition that another part of the system (a queue worker) brings about, up to a deadline. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Records events the way state changes do: each in its own transaction, its webhook deliveries queued with it. */
export async function recordEvents(
  t: TestGateway,
  clock: ManualClock,
  accountId: string,
  events: { name: string; orderingKey: string | null; payload: unknown }[],
): Promise<EventRecord[]> {
  const recorded: EventRecord[] = [];
  for (const e of events) recorded.push(await t.gateway.store.transaction((tx) => recordEvent(tx, clock, { accountId, ...e })));
  return recorded;
}

interface QueueState {
  sending: number;
  /** Pending deliveries that head their lane and are due now. */
  runnable: number;
  nextDue: Date | null;
}

async function queueState(t: TestGateway, now: Date): Promise<QueueState> {
  const db = t.gateway.database.db;
  const { rows } = await sql<{ sending: number; runnable: number; next_due: Date | null }>`
    select
      (select count(*)::int from webhook_deliveries where status = 'sending') as sending,
      (select count(*)::int from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id and s.status = 'active'
        where d.status = 'pending' and d.next_attempt_at <= ${now}
          and not exists (select 1 from webhook_deliveries p where p.account_id = d.account_id and p.endpoint = d.endpoint and p.lane = d.lane
                          and p.seq < d.seq and p.status in ('pending', 'sending'))) as runnable,
      (select min(next_attempt_at) from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id and s.status = 'active'
        where d.status = 'pending' and d.next_attempt_at > ${now}) as next_due`.execute(db);
  const r = rows[0]!;
  return { sending: r.sending, runnable: r.runnable, nextDue: r.next_due };
}

/**
 * Runs deliveries to completion on a manual clock: while work can run now it lets the workers run it;
 * when everything left waits for a retry, it moves the clock to the next due time and sweeps, so a
 * schedule of hours passes in moments. Stops when `done` holds or nothing is left to deliver.
 */
export async function driveDeliveries(t: TestGateway, clock: ManualClock, done: () => boolean | Promise<boolean> = () => false, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let idleRounds = 0;
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline) throw new Error('deliveries did not finish in time');
    const state = await queueState(t, clock.now());
    if (state.sending > 0 || state.runnable > 0) {
      idleRounds = 0;
      // Due heads are claimed by the delivery loop; a nudge saves waiting for its next look.
      if (state.runnable > 0 && state.sending === 0) await t.gateway.webhooks.sweep();
      await sleep(15);
      continue;
    }
    if (state.nextDue) {
      clock.set(state.nextDue);
      await t.gateway.webhooks.sweep();
      continue;
    }
    if (++idleRounds > 10) return;
    await sleep(15);
  }
}
