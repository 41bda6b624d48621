import { exportColumns } from '../../../contract/exports.ts';
import { recordEvent } from '../events/record-event.ts';
import { DOWNLOAD_LINK_TTL_MS } from './download-link.ts';
import { isReady } from './exports.ts';
import type { ExportCursor, ExportDeps, ExportRecord, ExportRepository, ExportRow } from './ports.ts';

const DEFAULT_PAGE_SIZE = 2_000;

/** The export's messages page by page (keyset on time, then insertion), so only one page is ever held. */
async function* pages(repo: ExportRepository, e: ExportRecord, pageSize: number): AsyncGenerator<readonly ExportRow[]> {
  const scope = { accountId: e.accountId, channelId: e.channelId, startAt: e.startAt, endAt: e.endAt };
  let after: ExportCursor | null = null;
  do {
    const page = await repo.messagePage(scope, after, pageSize);
    yield page.rows;
    after = page.next;
  } while (after !== null);
}

/**
 * The export job: pending → processing, the file streamed from the database to disk outside any transaction,
 * then done with `messages_dump.status_update` carrying the signed link. A retry after a crash starts the
 * file over; a finished export is left alone.
 */
export async function buildExport(deps: ExportDeps, exportId: string): Promise<'built' | 'skipped'> {
  const started = await deps.store.transaction(async (tx) => {
    const e = await tx.exports.getByIdForUpdate(exportId);
    if (!e || isReady(e.status)) return null;
    const next: ExportRecord = { ...e, status: 'processing', updatedAt: deps.clock.now() };
    await tx.exports.update(next);
    return next;
  });
  if (!started) return 'skipped';

  let rowCount = 0;
  async function* counted() {
    for await (const page of pages(deps.store.exports, started!, deps.pageSize ?? DEFAULT_PAGE_SIZE)) {
      rowCount += page.length;
      yield page;
    }
  }
  await deps.files.write(exportId, exportColumns, counted());

  return deps.store.transaction(async (tx) => {
    const e = await tx.exports.getByIdForUpdate(exportId);
    if (!e || e.status !== 'processing') return 'skipped';
    const completedAt = deps.clock.now();
    const done: ExportRecord = { ...e, status: 'done', rowCount, updatedAt: completedAt, completedAt, expiresAt: new Date(completedAt.getTime() + DOWNLOAD_LINK_TTL_MS) };
    await tx.exports.update(done);
    await recordEvent(tx, deps.clock, {
      accountId: e.accountId,
      name: 'messages_dump.status_update',
      orderingKey: `export:${e.id}`,
      payload: { export_id: e.id, status: 'done', url: deps.links.url(e.id, done.expiresAt!) },
    });
    await tx.jobs.enqueue('exports.purge', { exportId: e.id }, { startAfter: done.expiresAt! });
    return 'built';
  });
}

/** Once its link expired, an export's file is removed; the task stays, its link answering 410. */
export async function purgeExport(deps: Pick<ExportDeps, 'files'>, exportId: string): Promise<void> {
  await deps.files.remove(exportId);
}
