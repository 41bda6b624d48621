import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import type { JobPayloads } from '../../core/jobs.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import { sendAcceptedMessage } from '../../core/messages/send-message.ts';

/**
 * Consumes `messages.send`. The queue hands out only the head of each chat's line, so one batch holds
 * different chats, sent in parallel, and one chat goes strictly in order. Each job settles on its own:
 * one chat's network error does not make the others' jobs retry.
 */
export async function workSendMessages(boss: PgBoss, deps: MessageDeps): Promise<void> {
  await boss.work(
    'messages.send',
    {
      batchSize: 20,
      includeMetadata: true,
      perJobResults: true,
      // A full batch means more is waiting: fetch again at once. Otherwise a chat's next message (freed
      // when its predecessor completes) and due retries are found by a short poll; NOTIFY wakes for new sends.
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
    },
    async (jobs: JobWithMetadata<JobPayloads['messages.send']>[]): Promise<JobResult[]> =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            await sendAcceptedMessage(deps, job.data.messageId, job.retryCount >= job.retryLimit);
            return { id: job.id, status: 'completed' };
          } catch (err) {
            return { id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } };
          }
        }),
      ),
  );
}
