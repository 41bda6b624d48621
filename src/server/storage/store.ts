import type { Kysely, Transaction } from 'kysely';
import type { JobQueue, Repositories, Store } from '../core/ports.ts';
import { coalesceHotReads } from './coalesced-reads.ts';
import { accountRepository } from './repositories/accounts.ts';
import { channelRepository } from './repositories/channels.ts';
import { chatListing, chatRepository } from './repositories/chats.ts';
import { contactRepository, crmUserRepository } from './repositories/crm.ts';
import { embedSessionRepository, embeddingOriginRepository } from './repositories/embedding.ts';
import { eventLogRepository } from './repositories/event-log.ts';
import { eventRepository } from './repositories/events.ts';
import { groupRepository } from './repositories/groups.ts';
import { messageHistory, messageRepository } from './repositories/messages.ts';
import { exportRepository } from './repositories/exports.ts';
import { sendQueueRepository } from './repositories/send-queue.ts';
import { sandboxStateRepository } from './repositories/sandbox.ts';
import { templateRepository } from './repositories/templates.ts';
import { tokenRepository } from './repositories/tokens.ts';
import { webhookDeliveryRepository } from './repositories/webhook-deliveries.ts';
import { webhookSettingsRepository } from './repositories/webhook-settings.ts';
import { webhookRepository } from './repositories/webhooks.ts';
import type { DatabaseSchema } from './schema.ts';

/** Binds the job queue to a transaction, so jobs commit with the writes that cause them. */
export type TransactionalJobs = (trx: Transaction<DatabaseSchema>) => JobQueue;

function repositories(db: Kysely<DatabaseSchema>): Repositories {
  return {
    accounts: accountRepository(db),
    channels: channelRepository(db),
    chats: { ...chatRepository(db), ...chatListing(db) },
    groups: groupRepository(db),
    messages: { ...messageRepository(db), ...messageHistory(db) },
    sends: sendQueueRepository(db),
    tokens: tokenRepository(db),
    webhooks: webhookRepository(db),
    events: eventRepository(db),
    sandbox: sandboxStateRepository(db),
    eventLog: eventLogRepository(db),
    embedSessions: embedSessionRepository(db),
    embeddingOrigins: embeddingOriginRepository(db),
    crmUsers: crmUserRepository(db),
    contacts: contactRepository(db),
    templates: templateRepository(db),
    exports: exportRepository(db),
    webhookSettings: webhookSettingsRepository(db),
    webhookDeliveries: webhookDeliveryRepository(db),
  };
}

/** `singleConnection`: the embedded database, where every statement waits its turn on one connection. */
export function createStore(db: Kysely<DatabaseSchema>, jobsWithin: TransactionalJobs, options: { singleConnection: boolean }): Store {
  const plain = repositories(db);
  return {
    ...coalesceHotReads(db, plain),
    transaction: (work) => db.transaction().execute((trx) => work({ ...repositories(trx), jobs: jobsWithin(trx) })),
    together: (work) => (options.singleConnection ? db.transaction().execute((trx) => work(repositories(trx))) : work(plain)),
  };
}
