import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The embedded database belongs to one process: two processes on one PGlite directory corrupt it.
 * A pid file taken with O_EXCL guards it; a file left by a process that is gone is taken over.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, 'pgdata.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `the embedded database in ${dir} is in use by process ${holder}; stop it first, or set DATABASE_URL to share a PostgreSQL server`,
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
