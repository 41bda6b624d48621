import { describe, expect, it } from 'vitest';
import { gatewayMetrics } from './metrics.ts';
import { ManualClock } from './testing/manual-clock.ts';

describe('gateway metrics', () => {
  const backlog = { sendsWaiting: 3, oldestSendDue: null, deliveriesOpen: 0, oldestDeliveryDue: null, subscriptionsFailing: 0, subscriptionsDisabled: 0, channels: [] };

  it('counts the rows retention deleted, by kind', async () => {
    const metrics = gatewayMetrics({ clock: new ManualClock(0), readBacklog: async () => backlog, connectedFrames: () => 0 });
    metrics.retained({ deliveryLog: 12, events: 5, uploads: 0, strayUploads: 1 });
    metrics.retained({ deliveryLog: 0, events: 2, uploads: 3, strayUploads: 0 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_retention_deleted_rows_total{kind="delivery_log"} 12');
    expect(text).toContain('gateway_retention_deleted_rows_total{kind="events"} 7');
    expect(text).toContain('gateway_retention_deleted_rows_total{kind="uploads"} 3');
    expect(text).toContain('gateway_retention_deleted_rows_total{kind="stray_uploads"} 1');
  });

  it('counts presses left unanswered, by transport and reason', async () => {
    const metrics = gatewayMetrics({ clock: new ManualClock(0), readBacklog: async () => backlog, connectedFrames: () => 0 });
    metrics.answerFailed('maxbot', 'dropped');
    metrics.answerFailed('maxbot', 'dropped');
    metrics.answerFailed('maxbot', 'refused');
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_messenger_answer_failures_total{transport="maxbot",reason="dropped"} 2');
    expect(text).toContain('gateway_messenger_answer_failures_total{transport="maxbot",reason="refused"} 1');
  });

  it('still answers a scrape when the queues cannot be read: the backlog unknown (NaN, not 0), and the failure counted', async () => {
    let failing = false;
    const metrics = gatewayMetrics({
      clock: new ManualClock(0),
      readBacklog: async () => {
        if (failing) throw new Error('database unavailable');
        return backlog;
      },
      connectedFrames: () => 2,
    });
    expect(await metrics.registry.metrics()).toContain('gateway_sends_waiting 3');
    failing = true;
    expect(await metrics.registry.metrics()).toMatch(/^gateway_sends_waiting NaN$/im);
    // A scrape's counters are read alongside its gauges: the failure shows from the next scrape on.
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^gateway_sends_waiting NaN$/im);
    expect(text).toContain('gateway_backlog_read_failures_total 1');
    expect(text).toContain('gateway_realtime_frames 2');
  });
});
