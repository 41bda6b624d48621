import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
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
