import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { exportNotFound } from './exports.ts';
import type { ExportDeps } from './ports.ts';

const FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.csv$/;

/**
 * Opens the file a download link names. The link is the only credential: a link that is not ours (or was
 * altered) is refused with 403, an expired one with 410, and a file no longer there is not found.
 */
export async function openDownload(
  deps: Pick<ExportDeps, 'clock' | 'files' | 'links'>,
  file: string,
  expires: string | undefined,
  signature: string | undefined,
): Promise<{ exportId: string; stream: Readable; size: number }> {
  const exportId = FILE.exec(file)?.[1];
  if (!exportId || expires === undefined || signature === undefined || !deps.links.verify(exportId, expires, signature)) {
    throw new AppError('FORBIDDEN', 'Download link is not valid');
  }
  if (Number(expires) * 1000 <= deps.clock.now().getTime()) throw new AppError('DOWNLOAD_EXPIRED', 'Download link expired; request a new export');
  const opened = await deps.files.open(exportId);
  if (!opened) throw exportNotFound(exportId);
  return { exportId, ...opened };
}
