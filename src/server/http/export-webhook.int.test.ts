import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSender } from '../core/webhooks/delivery.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`an export whose announcement the endpoint refuses (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;
  let refusing = true;
  const posts: string[] = [];
  const sender: WebhookSender = {
    async post({ body }) {
      posts.push(JSON.parse(body).event as string);
      return { status: refusing ? 500 : 200, retryAfter: null, latencyMs: 1 };
    },
  };

  beforeAll(async () => {
    t = await startTestGateway({ webhooks: { sender, random: () => 0, resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] } });
    token = (await t.newAccount()).token;
    const sub = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: 'https://crm.example.com/hooks', event: 'messages_dump.status_update' }] } });
    expect(sub.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('shows webhook_failed while the delivery is refused, and done once a retry gets through', async () => {
    const created = await t.call('POST', '/v2/messages/messages_dump', { token, body: { start_at: '2030-01-01', end_at: '2030-01-02' } });
    expect(created.statusCode).toBe(201);
    const exportId = created.json().data.export_id as string;
    const status = async () => (await t.call('GET', `/v2/messages/messages_dump/${exportId}`, { token })).json().data as { status: string; url: string | null };
    const failed = await eventually(async () => ((await status()).status === 'webhook_failed' ? await status() : undefined));
    expect(failed.url).toMatch(/\/downloads\/exports\//);
    refusing = false;
    await eventually(async () => ((await status()).status === 'done' ? true : undefined), 30_000);
    expect(posts.filter((e) => e === 'messages_dump.status_update').length).toBeGreaterThanOrEqual(2);
  }, 40_000);
});
