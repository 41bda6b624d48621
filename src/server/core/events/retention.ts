import type { Clock, Store } from '../ports.ts';
import { UPLOAD_RETENTION_MS } from '../uploads/uploads.ts';
import { DELIVERY_LOG_RETENTION_MS, pruneDeliveryLog } from '../webhooks/delivery-log.ts';

/**
 * How long events are kept at least: a day longer than the delivery log. An event goes only once no delivery
 * refers to it (an open one, or a finished one still in the log, which can be queued again, keeps it). The
 * frames replay missed events only over minutes; one that comes back after longer is told to read afresh.
 */
export const EVENT_RETENTION_MS = DELIVERY_LOG_RETENTION_MS + 24 * 60 * 60 * 1000;

export interface RetentionDeps {
  store: Store;
  clock: Clock;
}

export interface RetentionOptions {
  /** Rows per statement: each batch is a short statement of its own, so other work goes on between them. */
  batchSize?: number;
  /** Batches per kind in one pass; what is left waits for the next pass. */
  maxBatches?: number;
  /** Checked between batches: a process that is stopping leaves the rest to the next pass. */
  stopping?: () => boolean;
}

export interface RetentionPass {
  deliveryLog: number;
  events: number;
  /** Files agents attached in the chat frame. */
  uploads: number;
  /** Kept bytes of files whose upload was never recorded. */
  strayUploads: number;
}

/** How old kept bytes without a record must be before they are taken for strays. */
const STRAY_AGE_MS = 60 * 60 * 1000;

/** Runs `prune` until it deletes less than a full batch (nothing more is due), the budget is spent, or stopping. */
async function inBatches(prune: () => Promise<number>, full: number, options: Required<RetentionOptions>): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < options.maxBatches && !options.stopping(); batch++) {
    const deleted = await prune();
    total += deleted;
    if (deleted < full) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/**
 * Deletes what is past its retention: the delivery log's attempts and finished deliveries, then the events no
 * delivery refers to any more (those a pass left in the log stay for the next), then the files agents attached. In
 * batches until none is left, so that a busy gateway's pass keeps up with what it records in the meantime
 * (a pass every hour of up to 200 batches of 5,000 rows per kind).
 */
export async function applyRetention(deps: RetentionDeps, options: RetentionOptions = {}): Promise<RetentionPass> {
  const settings: Required<RetentionOptions> = { batchSize: 5_000, maxBatches: 200, stopping: () => false, ...options };
  const limit = settings.batchSize;
  // The log's prune deletes up to `limit` attempts and up to `limit` deliveries: a full table gives at least `limit`.
  const deliveryLog = await inBatches(() => pruneDeliveryLog(deps, limit), limit, settings);
  const before = new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS);
  const events = await inBatches(() => deps.store.events.prune(before, limit), limit, settings);
  // Files go by the hundred: each row holds up to 20 MB, and one statement should not delete gigabytes.
  const uploadBatch = Math.min(limit, 100);
  const keptSince = new Date(deps.clock.now().getTime() - UPLOAD_RETENTION_MS);
  const uploads = await inBatches(() => deps.store.uploads.prune(keptSince, uploadBatch), uploadBatch, settings);
  // Bytes a crash kept without their upload's record; an hour is far longer than any upload takes to be recorded.
  const strayUploads = settings.stopping() ? 0 : await deps.store.uploads.removeStrays(new Date(deps.clock.now().getTime() - STRAY_AGE_MS));
  return { deliveryLog, events, uploads, strayUploads };
}
