import type { PgBoss } from 'pg-boss';
import { onQrTimer } from '../../core/channels/channel-queries.ts';
import { historySynced } from '../../core/channels/messenger-events.ts';
import type { ChannelDeps } from '../../core/channels/ports.ts';
import type { JobPayloads } from '../../core/jobs.ts';

/** A timer that fired before its QR expired (clocks of two machines disagree): failing makes the queue retry. */
class QrStillLive extends Error {}

/** The channels' time-driven steps: QR codes reaching the end of their life, and history syncs after a scan. */
export async function workChannelTimers(boss: PgBoss, deps: ChannelDeps): Promise<void> {
  // Timers become due without a NOTIFY: poll every second rather than on the 30-second backstop.
  const polling = { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 };
  await boss.work<JobPayloads['channels.qr_tick']>('channels.qr_tick', { batchSize: 10, ...polling }, async (jobs) => {
    for (const job of jobs) {
      if ((await onQrTimer(deps, job.data.channelId, job.data.shown)) === 'early') throw new QrStillLive(`QR of ${job.data.channelId} is still live`);
    }
  });
  await boss.work<JobPayloads['channels.sync']>('channels.sync', { batchSize: 10, ...polling }, async (jobs) => {
    for (const job of jobs) await historySynced(deps, job.data.channelId);
  });
}
