import type { AttemptObserver } from '../webhooks/delivery.ts';
import { randomUUID } from 'node:crypto';
import type { CreateExportBody, ExportStatus, ExportTask } from '../../../contract/exports.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import { parsePeriod } from './period.ts';
import type { DownloadLinks, ExportRecord } from './ports.ts';

export const exportNotFound = (exportId: string): AppError => new AppError('EXPORT_NOT_FOUND', 'Export not found', { export_id: exportId });

/** The file is ready in these statuses; the task then shows its link. */
export const isReady = (status: ExportStatus): boolean => status === 'done' || status === 'webhook_failed';

export const toExportTask = (e: ExportRecord, links: DownloadLinks): ExportTask => ({
  export_id: e.id,
  status: e.status,
  url: isReady(e.status) && e.expiresAt ? links.url(e.id, e.expiresAt) : null,
});

/** Queues an export of the account's messages in [start_at, end_at), of one channel when given. */
export async function requestExport(
  deps: { store: Store; clock: Clock },
  accountId: string,
  body: CreateExportBody,
): Promise<{ status: ExportStatus; export_id: string; warnings?: string[] }> {
  const { start, end, warnings } = parsePeriod(body.start_at, body.end_at);
  return deps.store.transaction(async (tx) => {
    const channelId = body.channel_id ?? null;
    if (channelId !== null && !(await tx.exports.channelBelongs(accountId, channelId))) throw channelNotFound(channelId);
    const now = deps.clock.now();
    const record: ExportRecord = {
      id: randomUUID(),
      accountId,
      channelId,
      startAt: start,
      endAt: end,
      status: 'pending',
      rowCount: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      expiresAt: null,
    };
    await tx.exports.insert(record);
    await tx.jobs.enqueue('exports.build', { exportId: record.id }, { singletonKey: record.id });
    return { status: record.status, export_id: record.id, ...(warnings.length > 0 ? { warnings } : {}) };
  });
}

export async function getExport(deps: { store: Store; links: DownloadLinks }, accountId: string, exportId: string): Promise<ExportTask> {
  const record = await deps.store.exports.get(accountId, exportId);
  if (!record) throw exportNotFound(exportId);
  return toExportTask(record, deps.links);
}

/**
 * The webhook side reports how the delivery of an export's `messages_dump.status_update` went: an error
 * answer shows the task as webhook_failed, a later success as done again. Nothing else changes, and no
 * event is recorded: it would go to the very endpoint that failed. Returns the status after the report,
 * or null for an unknown export.
 */
export async function exportWebhookOutcome(deps: { store: Store; clock: Clock }, exportId: string, ok: boolean): Promise<ExportStatus | null> {
  return deps.store.transaction(async (tx) => {
    const record = await tx.exports.getByIdForUpdate(exportId);
    if (!record) return null;
    const next: ExportStatus | null = ok && record.status === 'webhook_failed' ? 'done' : !ok && record.status === 'done' ? 'webhook_failed' : null;
    if (next === null) return record.status;
    await tx.exports.update({ ...record, status: next, updatedAt: deps.clock.now() });
    return next;
  });
}

/** An export whose announcement the endpoint refused shows webhook_failed, and done once a retry gets through. */
export const exportAnnouncementObserver =
  (deps: { store: Store; clock: Clock }): AttemptObserver =>
  async ({ eventName, payloads, delivered }) => {
    if (eventName !== 'messages_dump.status_update') return;
    for (const payload of payloads) {
      const exportId = (payload as { export_id?: unknown }).export_id;
      if (typeof exportId === 'string') await exportWebhookOutcome(deps, exportId, delivered);
    }
  };
