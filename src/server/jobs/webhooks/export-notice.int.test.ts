import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { driveDeliveries, eventually } from '../../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

describe(`an export's ready-notice and the export's status (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(5), timeoutMs: 5_000, sweepIntervalMs: 0 } });
  });
  afterAll(async () => {
    await r?.close();
    await t.close();
  });

  it('shows webhook_failed while the messages_dump.status_update delivery is answered with an error, and done once a retry gets through', async () => {
    const { token } = await t.newAccount();
    r = await startWebhookReceiver((_req, previous) => ({ status: previous === 0 ? 500 : 200 }));
    await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: r.url, event: 'messages_dump.status_update' }] } });
    const created = await t.call('POST', '/v2/messages/messages_dump', { token, body: { start_at: '2020-01-01', end_at: '2020-02-01' } });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.export_id as string;
    const statusOf = async () => (await t.call('GET', `/v2/messages/messages_dump/${id}`, { token })).json().data.status as string;

    await eventually(() => r.requests.length === 1);
    expect(r.requests[0]!.json).toMatchObject({ event: 'messages_dump.status_update', data: [{ export_id: id, status: 'done' }] });
    expect(await eventually(async () => ((await statusOf()) === 'webhook_failed' ? 'webhook_failed' : undefined))).toBe('webhook_failed');

    await driveDeliveries(t, clock, () => r.requests.length === 2);
    expect(r.requests[1]!.status).toBe(200);
    expect(await eventually(async () => ((await statusOf()) === 'done' ? 'done' : undefined))).toBe('done');
  });
});
