import type { PgBoss } from 'pg-boss';
import { dispatchEvent, type DispatchDeps } from '../../core/events/dispatch-event.ts';
import type { JobPayloads } from '../../core/jobs.ts';

/** Consumes `events.dispatch`: hands each recorded event to the stream's sinks. */
export async function workDispatchEvents(boss: PgBoss, deps: DispatchDeps): Promise<string> {
  return boss.work<JobPayloads['events.dispatch']>(
    'events.dispatch',
    // A full batch means more are waiting: fetch again at once instead of waiting for the next NOTIFY.
    { batchSize: 20, localConcurrency: 2, burstWhenBatchFull: true },
    async (jobs) => {
      for (const job of jobs) await dispatchEvent(deps, job.data.eventId);
    },
  );
}
