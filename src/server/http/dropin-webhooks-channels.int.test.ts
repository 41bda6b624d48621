import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';


/** Set-ups the original service's clients run again and again, and what a new channel answers them. */
describe(`webhook set-ups and new channels as the service's clients meet them (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  const hook = 'http://127.0.0.1:9/crm-hook';

  beforeAll(async () => {
    t = await startTestGateway({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
    a = await t.newAccount('A');
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await t.call(method, url, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers the existing subscription when the same url and event are subscribed again', async () => {
    const body = { data: [{ url: hook, event: 'message.add' }, { url: hook, event: 'message.status_update' }] };
    const first = await call('POST', '/v2/webhooks', body);
    expect(first.status).toBe(201);
    const again = await call('POST', '/v2/webhooks', { data: [...body.data, { url: hook, event: 'message.add' }] });
    expect(again.status).toBe(201);
    const ids = first.body.data.map((s: { id: string }) => s.id);
    expect(again.body.data.map((s: { id: string }) => s.id)).toEqual([...ids, ids[0]]);
    expect(again.body.data[0]).toMatchObject({ id: ids[0], url: hook, event: 'message.add' });
    // channel.update is channel.status_update: one subscription for both names.
    const alias = await call('POST', '/v2/webhooks', { data: [{ url: hook, event: 'channel.update' }, { url: hook, event: 'channel.status_update' }] });
    expect(alias.body.data[0].id).toBe(alias.body.data[1].id);
    expect((await call('GET', '/v2/webhooks')).body.data).toHaveLength(3);
  });

  it('subscribes the known events of a call and names the unknown ones it refused', async () => {
    const res = await call('POST', '/v2/webhooks', {
      data: [
        { url: hook, event: 'crm_entities.contact_add' },
        { url: hook, event: 'channel.made_up' },
        { url: hook, event: 'crm_entities.deal_add' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.map((s: { event: string }) => s.event)).toEqual(['crm_entities.contact_add', 'crm_entities.deal_add']);
    expect(res.body.meta).toMatchObject({ timestamp: expect.any(Number), refused: [{ index: 1, event: 'channel.made_up', reason: 'unknown event' }] });
    expect((await call('GET', '/v2/webhooks')).body.data).toHaveLength(5);

    const none = await call('POST', '/v2/webhooks', { data: [{ url: hook, event: 'nothing.known' }] });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'data.0.event' }] } });

    const [sub] = res.body.data;
    const patched = await call('PATCH', '/v2/webhooks', { data: [{ id: sub.id, url: `${hook}/2`, event: 'message.edit' }, { id: sub.id, url: hook, event: 'zzz' }] });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual([{ id: sub.id, url: `${hook}/2`, event: 'message.edit', status: 'active', disabled_reason: null }]);
    expect(patched.body.meta.refused).toEqual([{ index: 1, event: 'zzz', reason: 'unknown event' }]);
  });

  it('answers a new channel with its status, reason and state', async () => {
    const bot = await call('POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } });
    expect(bot.status).toBe(201);
    expect(bot.body.data).toEqual([{ channel_id: expect.any(String), transport: 'telegram', status: 'active', reason: null, state: 'active' }]);
    const qr = await call('POST', '/v2/channels', { transport: 'whatsapp', credentials: {} });
    expect(qr.body.data).toEqual([{ channel_id: expect.any(String), transport: 'whatsapp', status: 'init', reason: 'qr', state: 'qr' }]);
    const wapi = await call('POST', '/v2/channels', { transport: 'wapi', credentials: {} });
    expect(wapi.body.data[0]).toMatchObject({ transport: 'wapi', status: 'init', url: expect.stringMatching(/^http/) });
    expect(wapi.body.data[0]).toHaveProperty('reason');
    expect(wapi.body.data[0]).toHaveProperty('state');
  });
});
