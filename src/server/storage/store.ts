import type { Kysely, Transaction } from 'kysely';
import type { JobQueue, Repositories, Store } from '../core/ports.ts';
import { coalesceHotReads } from './coalesced-reads.ts';
import { accountRepository } from './repositories/accounts.ts';
import { channelRepository } from './repositories/channels.ts';
import { chatListing, chatRepository } from './repositories/chats.ts';
import { contactRepository, crmUserRepository } from './repositories/crm.ts';
import { rightsRepository } from './repositories/rights.ts';
import { contactCardRepository, dealRepository, pipelineRepository } from './repositories/crm-entities.ts';
import { embedSessionRepository, embeddingOriginRepository } from './repositories/embedding.ts';
import { eventLogRepository } from './repositories/event-log.ts';
import { eventRepository } from './repositories/events.ts';
import { groupRepository } from './repositories/groups.ts';
import { quickReplyRepository } from './repositories/quick-replies.ts';
import { reactionRepository } from './repositories/reactions.ts';
import { messageHistory, messageRepository } from './repositories/messages.ts';
import { exportRepository } from './repositories/exports.ts';
import { uploadRepository } from './repositories/uploads.ts';
import type { UploadFiles } from './upload-files.ts';
import { pacingRepository } from './repositories/pacing.ts';
import { newSendCursor, sendQueueRepository, type SendCursor } from './repositories/send-queue.ts';
import { sandboxStateRepository } from './repositories/sandbox.ts';
import { sessionFenceCheck } from './repositories/sessions.ts';
import { templateRepository } from './repositories/templates.ts';
import { tokenRepository } from './repositories/tokens.ts';
import { webhookDeliveryRepository } from './repositories/webhook-deliveries.ts';
import { webhookSettingsRepository } from './repositories/webhook-settings.ts';
import { webhookRepository } from './repositories/webhooks.ts';
import type { DatabaseSchema } from './schema.ts';
import type { EventsRecorded } from './repositories/webhook-fan-out.ts';
import { LaneCursors } from './repositories/webhook-lane-heads.ts';

/** Binds the job queue to a transaction, so jobs commit with the writes that cause them. */
export type TransactionalJobs = (trx: Transaction<DatabaseSchema>) => JobQueue;

/** What a store's commits tell its own process, and how its notifications are marked for it. */
export interface StoreOptions {
  /** The embedded database, where every statement waits its turn on one connection. */
  singleConnection: boolean;
  /** After a commit that recorded events (and queued webhook deliveries, or not): this process's loops look at once. */
  eventsRecorded?: EventsRecorded;
  /** Where uploads keep their bytes when not in the database (the embedded one's directory). */
  uploadFiles?: UploadFiles | null;
  /** This process's mark on the session leases it holds: sends through a session's channel are claimed where it runs. */
  sessionOwner?: string | null;
}

/** Where this process's claims go on from, shared by every repository it makes (in a transaction or not). */
interface ClaimCursors {
  sends: SendCursor;
  lanes: LaneCursors;
  /** The session owner this process claims sends as (see StoreOptions.sessionOwner). */
  owner: string | null;
}

/** `recorded` hears of every statement that records events, before it commits; `files` keeps uploads off the database. */
function repositories(db: Kysely<DatabaseSchema>, recorded: EventsRecorded, cursors: ClaimCursors, files: UploadFiles | null): Repositories {
  return {
    accounts: accountRepository(db),
    channels: channelRepository(db),
    chats: { ...chatRepository(db), ...chatListing(db) },
    groups: groupRepository(db),
    messages: { ...messageRepository(db), ...messageHistory(db) },
    reactions: reactionRepository(db),
    sends: sendQueueRepository(db, recorded, cursors.sends, cursors.owner),
    tokens: tokenRepository(db),
    webhooks: webhookRepository(db),
    events: eventRepository(db, recorded),
    sandbox: sandboxStateRepository(db),
    eventLog: eventLogRepository(db),
    embedSessions: embedSessionRepository(db),
    embeddingOrigins: embeddingOriginRepository(db),
    crmUsers: crmUserRepository(db),
    contacts: contactRepository(db),
    rights: rightsRepository(db),
    contactCards: contactCardRepository(db),
    deals: dealRepository(db),
    pipelines: pipelineRepository(db),
    templates: templateRepository(db),
    exports: exportRepository(db),
    webhookSettings: webhookSettingsRepository(db),
    webhookDeliveries: webhookDeliveryRepository(db, cursors.lanes),
    uploads: uploadRepository(db, files),
    sessionFences: sessionFenceCheck(db),
    pacing: pacingRepository(db),
    quickReplies: quickReplyRepository(db),
  };
}

export function createStore(db: Kysely<DatabaseSchema>, jobsWithin: TransactionalJobs, options: StoreOptions): Store {
  const wake: EventsRecorded = (what) => options.eventsRecorded?.(what);
  // Outside a transaction every statement commits by itself: the wake follows it at once.
  const cursors: ClaimCursors = { sends: newSendCursor(), lanes: new LaneCursors(), owner: options.sessionOwner ?? null };
  const files = options.uploadFiles ?? null;
  const plain = repositories(db, wake, cursors, files);
  /** Runs `work` in a transaction, and wakes this process's loops once it committed, if it recorded events. */
  const inTransaction = async <T>(work: (repos: Repositories, trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T> => {
    let recorded: { deliveries: boolean } | null = null;
    const result = await db.transaction().execute((trx) =>
      work(
        repositories(trx, (what) => (recorded = { deliveries: what.deliveries || (recorded?.deliveries ?? false) }), cursors, files),
        trx,
      ),
    );
    if (recorded) wake(recorded);
    return result;
  };
  return {
    ...coalesceHotReads(db, plain),
    transaction: (work) => inTransaction((repos, trx) => work({ ...repos, jobs: jobsWithin(trx) })),
    together: (work) => (options.singleConnection ? inTransaction((repos) => work(repos)) : work(plain)),
  };
}
