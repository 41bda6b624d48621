/**
 * The embedded database alone: a process that opens PGlite in a fresh data directory, as the gateway does,
 * from the installed template when there is one, and answers its resident memory over IPC. Shows how much of
 * the gateway's idle footprint is the database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { seedFromTemplate } from '../../src/server/storage/database-template.ts';
import { embeddedOptions } from '../../src/server/storage/embedded-settings.ts';

const dir = await mkdtemp(join(tmpdir(), 'gw-bench-pglite-'));
await seedFromTemplate(join(dir, 'pgdata'));
// `gateway`: with the settings the gateway starts it with (its Node flags come from the parent).
const db = await PGlite.create(join(dir, 'pgdata'), process.argv.includes('gateway') ? embeddedOptions() : {});
await db.query('select 1');
process.send?.({ url: '' });
process.on('message', (m: { type: 'rss' | 'stop' }) => {
  if (m.type === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (m.type === 'stop') void db.close().then(() => rm(dir, { recursive: true, force: true })).then(() => process.exit(0));
});
