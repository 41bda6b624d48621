import { fileURLToPath } from 'node:url';
import { buildFramesIfStale } from './prepare/frames.ts';

/**
 * What `npm ci` (postinstall) and `npm start` do before the gateway starts, each only when needed: build the frames
 * when their sources changed, and make the embedded database's template when there is none. So `npm start` starts
 * at once, on an empty data directory too. `--force` builds the frames again; `--frames-only` skips the database.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => console.log(line);

await buildFramesIfStale(root, process.argv.includes('--force'), say);
if (!process.argv.includes('--frames-only')) {
  // Imported here only: building the frames alone needs no database code.
  const { prepareDatabaseTemplate } = await import('./prepare/database.ts');
  await prepareDatabaseTemplate(say);
}
