import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { JobPayloads } from '../../core/jobs.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import { sendAcceptedMessage } from '../../core/messages/send-message.ts';

/**
 * Consumes `messages.send`. The queue hands out only the head of each chat's line, so workers send different
 * chats in parallel and one chat strictly in order.
 */
export async function workSendMessages(boss: PgBoss, deps: MessageDeps, concurrency = 4): Promise<void> {
  await boss.work(
    'messages.send',
    { batchSize: 1, localConcurrency: concurrency, includeMetadata: true, pollingIntervalSeconds: 1 },
    async ([job]: JobWithMetadata<JobPayloads['messages.send']>[]) => {
      if (job) await sendAcceptedMessage(deps, job.data.messageId, job.retryCount >= job.retryLimit);
    },
  );
}
