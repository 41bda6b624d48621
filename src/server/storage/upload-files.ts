import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the embedded gateway keeps the bytes of uploads (DATA_DIR/uploads), one file each, named by the upload's id. */
export interface UploadFiles {
  write(id: string, content: Buffer): Promise<void>;
  /** Null when there is no such file. */
  read(id: string): Promise<Buffer | null>;
  remove(ids: readonly string[]): Promise<void>;
}

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
  };
}
