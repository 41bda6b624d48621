import { readFileSync } from 'node:fs';
import { cp, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A fresh embedded database is a PostgreSQL cluster made by initdb, then the gateway's migrations and the job
 * queue's schema: most of a first start, and the same bytes every time. The install makes one such cluster (see
 * src/server/prepare.ts) and a first start on an empty data directory copies it, then migrates what is newer as
 * every start does. Nothing of an installation is in it: no account, no key (those are made at the first start).
 * It is kept per PGlite version, whose data format it is; without one, a first start runs initdb as before.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // The package's entry is under dist/; its package.json is the nearest one above it that names it.
  let dir = dirname(entry);
  while (dir !== dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

/** Where the template for the installed PGlite lives (the project's own cache, beside its packages). */
export function databaseTemplateDir(): string {
  return join(root, 'node_modules', '.cache', 'messaging-gateway', `pgdata-${pgliteVersion()}`);
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/** The template is whole once initdb wrote PG_VERSION and the preparing process closed it (it renames it last). */
export const templateReady = (dir: string) => exists(join(dir, 'PG_VERSION'));

/**
 * Copies the template into `pgdata` when that does not exist yet. Copied beside it first and renamed, so a start
 * cut short never leaves half a cluster behind. Returns whether it did.
 */
export async function seedFromTemplate(pgdata: string, template = databaseTemplateDir()): Promise<boolean> {
  if ((await exists(pgdata)) || !(await templateReady(template))) return false;
  const partial = `${pgdata}.copying`;
  await rm(partial, { recursive: true, force: true });
  await cp(template, partial, { recursive: true });
  await rename(partial, pgdata);
  return true;
}
