import type { Queue } from 'pg-boss';
import type { JobName } from '../core/jobs.ts';

/** pg-boss settings per job name. Every queue is woken by NOTIFY; polling is only a backstop. */
export const queueOptions: Record<JobName, Omit<Queue, 'name'>> = {
  'channels.qr_tick': { notify: true, retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  'channels.sync': { notify: true, retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  // A large export may take minutes; a retry starts the file over.
  'exports.build': { notify: true, retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60 },
  'exports.purge': { notify: true, retryLimit: 10, retryDelay: 60, retryBackoff: true, expireInSeconds: 60 },
};

export const jobNames = Object.keys(queueOptions) as JobName[];
