import { fileURLToPath } from 'node:url';
import { buildFramesIfStale } from './prepare/frames.ts';
import { databaseTemplateDir, templateReady } from './storage/database-template.ts';

/**
 * What `npm ci` (postinstall) and `npm start` do before the gateway starts, each only when needed: build the frames
 * when their sources changed, and make the embedded database's template when there is none. So `npm start` starts
 * at once, on an empty data directory too. `--force` builds the frames again; `--frames-only` skips the database.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => console.log(line);

await buildFramesIfStale(root, process.argv.includes('--force'), say);
const databaseToo = !process.argv.includes('--frames-only');
if (databaseToo && (await templateReady(databaseTemplateDir()))) say('The embedded database template is ready.');
else if (databaseToo) {
  // Imported only when there is one to make: the database code takes a second of CPU to load.
  const { prepareDatabaseTemplate } = await import('./prepare/database.ts');
  await prepareDatabaseTemplate(say);
}
