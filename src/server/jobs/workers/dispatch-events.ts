import type { PgBoss } from 'pg-boss';
import { dispatchEvents, type DispatchDeps } from '../../core/events/dispatch-event.ts';
import type { JobPayloads } from '../../core/jobs.ts';

/**
 * Consumes `events.dispatch`: hands the recorded events to the stream's sinks, a whole fetched batch at
 * once, so that the webhook fan-out is one set-based transaction per batch rather than one per event.
 */
export async function workDispatchEvents(boss: PgBoss, deps: DispatchDeps): Promise<string> {
  return boss.work<JobPayloads['events.dispatch']>(
    'events.dispatch',
    // A full batch means more are waiting: fetch again at once instead of waiting for the next NOTIFY.
    { batchSize: 200, localConcurrency: 1, burstWhenBatchFull: true },
    async (jobs) => {
      await dispatchEvents(
        deps,
        jobs.map((job) => job.data.eventId),
      );
    },
  );
}
