import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * The frames (the widget, built by Vite into dist/) are built only when what they are built from changed since
 * the last build: the widget's and the contract's sources, index.html, the Vite config and the locked
 * dependencies. Their digest is kept in dist/ beside the build.
 */
const SOURCES = ['src/widget', 'src/contract', 'index.html', 'vite.config.ts', 'package-lock.json'];

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOTDIR') return null;
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries === null) return [path];
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(join(path, entry.name)) : [join(path, entry.name)])));
  return nested.flat();
}

/** One digest of every source file's path and bytes, in a stable order. */
async function sourcesDigest(root: string): Promise<string> {
  const files = (await Promise.all(SOURCES.map((source) => filesUnder(join(root, source))))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    // Tests sit beside the code but are not built into the frames.
    if (/\.test\.tsx?$/.test(file)) continue;
    hash.update(relative(root, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}

export async function buildFramesIfStale(root: string, force: boolean, say: (line: string) => void): Promise<void> {
  const stamp = join(root, 'dist', '.sources-digest');
  const digest = await sourcesDigest(root);
  const built = await readFile(stamp, 'utf8').catch(() => null);
  if (built?.trim() === digest && !force) return say('The frames are up to date (dist/).');
  // An install without development packages (`npm ci --omit=dev`) has no Vite: it serves a dist/ built elsewhere.
  const vite = await import('vite').catch(() => null);
  if (!vite) return say('Vite is not installed: the frames are not built here.');
  const started = Date.now();
  say('Building the frames (dist/)…');
  await vite.build({ root, logLevel: 'warn' });
  await writeFile(stamp, `${digest}\n`);
  say(`Built the frames in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
