import type { PgBoss } from 'pg-boss';
import { buildExport, purgeExport } from '../../core/exports/build-export.ts';
import type { ExportDeps } from '../../core/exports/ports.ts';
import type { JobPayloads } from '../../core/jobs.ts';

/** Builds export files one at a time per process (each streams a whole period), and removes expired ones. */
export async function workExports(boss: PgBoss, deps: ExportDeps): Promise<void> {
  await boss.work<JobPayloads['exports.build']>('exports.build', { batchSize: 1, localConcurrency: 1 }, async ([job]) => {
    if (job) await buildExport(deps, job.data.exportId);
  });
  await boss.work<JobPayloads['exports.purge']>('exports.purge', { batchSize: 10 }, async (jobs) => {
    for (const job of jobs) await purgeExport(deps, job.data.exportId);
  });
}
