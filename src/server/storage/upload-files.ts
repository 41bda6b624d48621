import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the embedded gateway keeps the bytes of uploads (DATA_DIR/uploads), one file each, named by the upload's id. */
export interface UploadFiles {
  write(id: string, content: Buffer): Promise<void>;
  /** Null when there is no such file. */
  read(id: string): Promise<Buffer | null>;
  remove(ids: readonly string[]): Promise<void>;
  /**
   * Removes the files last written before `before` that `kept` does not name (it answers, of the ids it is given,
   * those still recorded), and the partial files a write left; answers how many went.
   */
  removeStrays(before: Date, kept: (ids: string[]) => Promise<Set<string>>): Promise<number>;
}

/** Ids asked after at a time, when looking for strays. */
const STRAY_BATCH = 500;

const ID = /^[0-9a-f-]{36}$/;

export function uploadFiles(dir: string): UploadFiles {
  const pathOf = (id: string) => {
    // Ids are the gateway's own UUIDs; anything else never reaches the disk.
    if (!ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return join(dir, id);
  };
  return {
    async write(id, content) {
      await mkdir(dir, { recursive: true });
      // Complete or absent: a file is written under a temporary name and renamed once whole.
      const partial = `${pathOf(id)}.part`;
      try {
        await writeFile(partial, content);
        await rename(partial, pathOf(id));
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    async read(id) {
      if (!ID.test(id)) return null;
      return readFile(pathOf(id)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
    },
    async remove(ids) {
      await Promise.all(ids.map((id) => rm(pathOf(id), { force: true })));
    },
    async removeStrays(before, kept) {
      const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      // Only what is old enough: a file written a moment ago may be waiting for its row.
      const old: string[] = [];
      for (const name of names) {
        const id = name.endsWith('.part') ? name.slice(0, -'.part'.length) : name;
        if (!ID.test(id)) continue;
        const written = await stat(join(dir, name)).then((s) => s.mtime, () => null);
        if (written && written < before) old.push(name);
      }
      let removed = 0;
      for (let i = 0; i < old.length; i += STRAY_BATCH) {
        const batch = old.slice(i, i + STRAY_BATCH);
        const recorded = await kept(batch.filter((name) => ID.test(name)));
        const strays = batch.filter((name) => !recorded.has(name));
        await Promise.all(strays.map((name) => rm(join(dir, name), { force: true })));
        removed += strays.length;
      }
      return removed;
    },
  };
}
