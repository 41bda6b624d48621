import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createBoss, createQueues } from '../jobs/boss.ts';
import { databaseTemplateDir, templateReady } from '../storage/database-template.ts';
import { migrateToLatest, openDatabase } from '../storage/database.ts';

/**
 * Makes the template a first start copies (see storage/database-template.ts): initdb, the migrations and the job
 * queue's schema, as a first start would make them, in a directory of its own renamed into place once closed.
 */
export async function prepareDatabaseTemplate(say: (line: string) => void): Promise<void> {
  const template = databaseTemplateDir();
  if (await templateReady(template)) return say('The embedded database template is ready.');
  const started = Date.now();
  say('Preparing the embedded database template…');
  const making = `${template}.making-${process.pid}`;
  await rm(making, { recursive: true, force: true });
  const database = await openDatabase({ kind: 'pglite', dataDir: making });
  try {
    await migrateToLatest(database.db);
    const boss = createBoss(database);
    await boss.start();
    await createQueues(boss);
    await boss.stop({ graceful: false });
  } finally {
    await database.close();
  }
  await rename(join(making, 'pgdata'), template).catch(async (err: NodeJS.ErrnoException) => {
    // Another install made it meanwhile: theirs is as good.
    if (!(await templateReady(template))) throw err;
  });
  await rm(making, { recursive: true, force: true });
  say(`Prepared the embedded database template in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
