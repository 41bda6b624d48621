import type { Queue } from 'pg-boss';
import type { JobName } from '../core/jobs.ts';

/** pg-boss settings per job name. Every queue is woken by NOTIFY; polling is only a backstop. */
export const queueOptions: Record<JobName, Omit<Queue, 'name'>> = {
  'events.dispatch': {
    notify: true,
    retryLimit: 10,
    retryDelay: 1,
    retryBackoff: true,
    expireInSeconds: 60,
  },
  // Retries of the HTTP attempt are scheduled by the delivery itself (GAPS.md schedule); these cover a
  // handler that failed before it could record the attempt (a database error).
  'webhooks.deliver': {
    notify: true,
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: 60,
  },
};

export const jobNames = Object.keys(queueOptions) as JobName[];
