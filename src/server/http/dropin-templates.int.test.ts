import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** Business-API templates managed at /v2/templates/waba as the service's clients manage them, moderated by the sandbox. */
describe(`business-API templates at /v2/templates/waba (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let wapi: string;
  let wapi2: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    wapi = await activeChannel(t, channelClient(t, a.token), 'wapi');
    wapi2 = await activeChannel(t, channelClient(t, a.token), 'wapi');
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.call(method, url, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };

  it('submits a template on its channels, moderates it, edits it back to PENDING and deletes it', async () => {
    const created = await call('POST', '/v2/templates/waba', {
      template: {
        title: 'Order Shipped',
        waba: { waba_id: '1234567890', waba_name: 'Shop' },
        channels: [wapi, wapi2],
        category: 'UTILITY',
        language: 'en',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['42'] } },
          { type: 'BODY', text: 'Your order {{2}} is on its way', example: { body_text: [['42']] } },
          { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track' }] },
        ],
      },
      is_draft: false,
    });
    expect(created.status).toBe(201);
    const tpl = created.body.data;
    expect(tpl).toMatchObject({ title: 'order_shipped', category: 'UTILITY', language: 'en', status: 'PENDING', channels: [wapi, wapi2] });
    expect(tpl.components).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Your order {{2}} is on its way' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track' }] },
    ]);
    // Each channel's copy is a template GET /v2/templates lists, moderated by the sandbox.
    const listed = (await call('GET', '/v2/templates')).body.data;
    expect(listed.map((x: { channel_id: string }) => x.channel_id).sort()).toEqual([wapi, wapi2].sort());
    for (const copy of tpl.templates) {
      expect((await call('POST', `/v2/sandbox/templates/${copy.id}/moderation`, { status: 'APPROVED' })).status).toBe(200);
    }
    expect((await call('GET', `/v2/templates/waba/${tpl.id}`)).body.data.status).toBe('APPROVED');
    expect((await call('GET', '/v2/templates/waba')).body.data.map((x: { id: string }) => x.id)).toEqual([tpl.id]);

    const edited = await call('PATCH', `/v2/templates/waba/${tpl.id}`, { template: { category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale: {{1}}' }] } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ category: 'MARKETING', status: 'PENDING', components: [{ type: 'BODY', text: 'Sale: {{1}}' }] });

    expect((await call('DELETE', `/v2/templates/waba/${tpl.id}`)).status).toBe(200);
    expect((await call('GET', `/v2/templates/waba/${tpl.id}`)).body.error).toBe('TEMPLATE_NOT_FOUND');
    expect((await call('GET', '/v2/templates')).body.data).toEqual([]);
  });

  it('refuses what the gateway cannot keep, naming it', async () => {
    const media = await call('POST', '/v2/templates/waba', {
      template: { title: 'pic', channels: [wapi], category: 'MARKETING', language: 'en', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'hi' }] },
    });
    expect(media.status).toBe(400);
    expect(media.body.data.fields).toContainEqual({ field: 'template.components.0.format', message: 'only TEXT headers are kept' });
    const unknown = await call('POST', '/v2/templates/waba', {
      template: { title: 'x', channels: ['00000000-0000-4000-8000-000000000000'], category: 'UTILITY', language: 'en', components: [{ type: 'BODY', text: 'hi' }] },
    });
    expect(unknown.status).toBe(404);
  });
});
