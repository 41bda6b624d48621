import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A secret given in the environment, or else one kept in the data directory (created on first start,
 * readable by the owner only). `created` tells the caller to announce it.
 */
export async function resolveSecret(
  given: string | null,
  dataDir: string,
  fileName: string,
): Promise<{ value: string; created: boolean; path: string | null }> {
  if (given) return { value: given, created: false, path: null };
  const path = join(dataDir, fileName);
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored) return { value: stored, created: false, path };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64url');
  await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true, path };
}
