import { randomUUID } from 'node:crypto';
import type { Clock, EventRecord, NewEvent, TransactionScope } from '../ports.ts';

/**
 * Records one event inside the caller's transaction and enqueues its dispatch in the same transaction,
 * so a state change, its event and the work that fans it out are committed together or not at all.
 * The event id is the webhook `meta.idempotency_key`.
 */
export async function recordEvent(tx: TransactionScope, clock: Clock, event: NewEvent): Promise<EventRecord> {
  const record: EventRecord = { ...event, id: randomUUID(), createdAt: clock.now(), dispatchedAt: null };
  await tx.events.insert(record);
  await tx.jobs.enqueue('events.dispatch', { eventId: record.id });
  return record;
}
