import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import type { JobPayloads } from '../../core/jobs.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import { sendAcceptedMessages } from '../../core/messages/send-message.ts';

export interface SendWorker {
  /** This process committed sends: fetch now rather than at the next poll or NOTIFY. */
  wake(): void;
}

/**
 * Consumes `messages.send`. The queue hands out only the head of each chat's line, so one batch holds
 * different chats, sent in parallel and recorded together, and one chat goes strictly in order. Each job
 * settles on its own: one chat's network error does not make the others' jobs retry.
 *
 * Wake-ups: sends accepted by this process wake the worker in process (`wake`); a finished batch fetches again
 * at once, since completing a chat's head frees its next message. NOTIFY wakes for sends of other processes,
 * and the poll is only the backstop for what neither announces (retries coming due, a lost notification).
 */
export async function workSendMessages(boss: PgBoss, deps: MessageDeps): Promise<SendWorker> {
  let workerId: string | null = null;
  const wake = () => {
    if (workerId) boss.notifyWorker(workerId);
  };
  workerId = await boss.work(
    'messages.send',
    {
      batchSize: 20,
      includeMetadata: true,
      perJobResults: true,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 1,
    },
    async (jobs: JobWithMetadata<JobPayloads['messages.send']>[]): Promise<JobResult[]> => {
      const failed = (id: string, err: unknown): JobResult => ({ id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } });
      let results: JobResult[];
      try {
        const outcomes = await sendAcceptedMessages(
          deps,
          jobs.map((job) => ({ messageId: job.data.messageId, lastAttempt: job.retryCount >= job.retryLimit })),
        );
        results = jobs.map((job, i) => {
          const outcome = outcomes[i];
          return outcome instanceof Error ? failed(job.id, outcome) : { id: job.id, status: 'completed' };
        });
      } catch (err) {
        // Recording failed (the database): every job of the batch is tried again; the driver is idempotent.
        results = jobs.map((job) => failed(job.id, err));
      }
      // Completing these frees each chat's next message: look for it right after, not at the next poll.
      if (jobs.length > 0) wake();
      return results;
    },
  );
  return { wake };
}
