import { randomUUID } from 'node:crypto';
import type { Clock, EventRecord, NewEvent, TransactionScope } from '../ports.ts';

/**
 * Records one event inside the caller's transaction: the event and the state change that caused it are
 * committed together or not at all, its webhook deliveries are queued by the same statement, and each
 * process's dispatcher (told at commit) hands it to its live connections from the table. The event id is the
 * webhook `meta.idempotency_key`.
 */
export async function recordEvent(tx: TransactionScope, clock: Clock, event: NewEvent): Promise<EventRecord> {
  const [record] = newEventRecords(clock, [event]);
  await tx.events.insert([record!]);
  return record!;
}

/** Events given their ids and recording time, for a caller that stores them in a statement of its own. */
export const newEventRecords = (clock: Clock, events: NewEvent[]): EventRecord[] =>
  events.map((event) => ({ ...event, id: randomUUID(), createdAt: clock.now() }));
