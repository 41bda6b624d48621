import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The data directory cannot hold the gateway's files; the message is one line, for the operator. */
export class DataDirUnusable extends Error {
  constructor(dir: string, reason: string, options?: { cause: unknown }) {
    super(`DATA_DIR ${dir} cannot be used: ${reason}`, options);
    this.name = 'DataDirUnusable';
  }
}

/** What a file system error says, in the operator's words. */
function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return 'it, or a folder above it, is a file and not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (the gateway must be able to create and write files there)';
    case 'EROFS':
      return 'it is on a read-only file system';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left on its device';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** An error of the file system under the data directory as DataDirUnusable; anything else as it is. */
export function asDataDirError(dir: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && ['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT'].includes(code) ? new DataDirUnusable(dir, reasonOf(err), { cause: err }) : err;
}

/**
 * Makes sure the data directory exists, is a directory, and takes a file: a probe written and removed. Checked
 * before anything else starts, so that an unusable directory stops the start with one clear line rather than
 * a stack trace from whichever part touched it first.
 */
export async function checkDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(dir, `.write-probe-${randomBytes(6).toString('hex')}`);
    await writeFile(probe, 'probe', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (err) {
    throw new DataDirUnusable(dir, reasonOf(err), { cause: err });
  }
}

/**
 * Below this much free space the embedded database takes no more work: a write it cannot make may end the process
 * (PostgreSQL panics when it cannot write its log), so the gateway stops short of a full disk.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/**
 * While the gateway runs: the data directory still takes a file, and its device has room. Fails with the file
 * system's code (EROFS, ENOSPC...), which counts as the database being unavailable until it passes again.
 */
export async function checkDataDirRoom(dir: string, minFreeBytes = MIN_FREE_BYTES): Promise<void> {
  const { bavail, bsize } = await statfs(dir);
  const free = bavail * bsize;
  if (free < minFreeBytes) {
    throw Object.assign(new Error(`No space left on the data directory's device: ${Math.floor(free / 1048576)} MB free, the embedded database needs ${minFreeBytes / 1048576} MB`), { code: 'ENOSPC' });
  }
  const probe = join(dir, '.write-probe');
  await writeFile(probe, 'probe');
  await rm(probe, { force: true });
}
