import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { staticResolver } from '../testing/static-resolver.ts';
import { databaseKind } from '../testing/test-database.ts';
import { eventually, recordEvents } from '../testing/webhook-driver.ts';
import { ManualClock } from '../testing/manual-clock.ts';

/** Names the test DNS points at places a webhook must never reach. */
const table: Record<string, string[]> = {
  'rebind.crm.example': ['93.184.215.30'],
  'private.crm.example': ['10.1.2.3'],
  'rfc1918.crm.example': ['192.168.0.10'],
  'shared.crm.example': ['100.64.1.1'],
  'loop.crm.example': ['127.0.0.1'],
  'metadata.crm.example': ['169.254.169.254'],
  'ula.crm.example': ['fd12:3456::1'],
  'linklocal6.crm.example': ['fe80::1'],
  'mapped.crm.example': ['::ffff:10.0.0.1'],
  'mixed.crm.example': ['93.184.215.20', '10.0.0.9'],
  'public.crm.example': ['93.184.215.20', '2001:db9::1'],
};
const dns = staticResolver(table);

describe(`subscription URLs (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { WEBHOOK_ALLOW_LOOPBACK: 'false' }, webhooks: { resolveHost: dns } });
    ({ token } = await t.newAccount());
  });
  afterAll(() => t.close());

  it.each([
    ['https://10.0.0.1/hook', 'private addresses are not allowed'],
    ['https://172.16.5.4/hook', 'private addresses are not allowed'],
    ['https://192.168.1.1/hook', 'private addresses are not allowed'],
    ['https://100.64.0.1/hook', 'private addresses are not allowed'],
    ['https://127.0.0.1/hook', 'loopback addresses are not allowed'],
    ['https://localhost/hook', 'loopback addresses are not allowed'],
    ['https://[::1]/hook', 'loopback addresses are not allowed'],
    ['https://169.254.169.254/latest/meta-data', 'link-local addresses are not allowed'],
    ['https://[fe80::1]/hook', 'link-local addresses are not allowed'],
    ['https://[fd00::1]/hook', 'unique local addresses are not allowed'],
    ['https://[::ffff:10.0.0.1]/hook', 'private addresses are not allowed'],
    ['https://[::ffff:0:7f00:1]/hook', 'loopback addresses are not allowed'],
    ['https://[2001:0::1]/hook', 'reserved addresses are not allowed'],
    ['https://[64:ff9b:1::a00:1]/hook', 'private addresses are not allowed'],
    ['https://0.0.0.0/hook', 'reserved addresses are not allowed'],
    ['https://private.crm.example/hook', 'resolves to 10.1.2.3: private addresses are not allowed'],
    ['https://rfc1918.crm.example/hook', 'resolves to 192.168.0.10: private addresses are not allowed'],
    ['https://shared.crm.example/hook', 'resolves to 100.64.1.1: private addresses are not allowed'],
    ['https://loop.crm.example/hook', 'resolves to 127.0.0.1: loopback addresses are not allowed'],
    ['https://metadata.crm.example/hook', 'resolves to 169.254.169.254: link-local addresses are not allowed'],
    ['https://ula.crm.example/hook', 'resolves to fd12:3456::1: unique local addresses are not allowed'],
    ['https://linklocal6.crm.example/hook', 'resolves to fe80::1: link-local addresses are not allowed'],
    ['https://mapped.crm.example/hook', 'resolves to ::ffff:10.0.0.1: private addresses are not allowed'],
    ['https://mixed.crm.example/hook', 'resolves to 10.0.0.9: private addresses are not allowed'],
    ['https://nowhere.invalid/hook', 'host name does not resolve'],
    ['http://public.crm.example/hook', 'scheme must be https'],
    ['ftp://public.crm.example/hook', 'scheme must be https'],
    ['not a url', 'not a valid absolute URL'],
    ['https://', 'not a valid absolute URL'],
    ['https://user:secret@public.crm.example/hook', 'must not carry credentials'],
    ['https://intranet/hook', 'host must be a fully qualified name'],
  ])('refuses %s with 400 and the reason: %s', async (url, reason) => {
    const res = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event: 'message.add' }] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'WEBHOOK_URL_NOT_ALLOWED',
      description: `Webhook URL is not allowed: ${reason}`,
      data: { fields: [{ field: 'data.0.url', message: reason }] },
    });
  });

  it('refuses an over-long URL with 400 and the reason, by the schema that documents the limit', async () => {
    const res = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: `https://public.crm.example/${'a'.repeat(2030)}`, event: 'message.add' }] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'data.0.url', message: 'must NOT have more than 2048 characters' }] } });
  });

  it('accepts a public HTTPS name and address, and refuses the whole call when one item is bad, naming every bad one', async () => {
    const ok = await t.call('POST', '/v2/webhooks', {
      token,
      body: { data: [{ url: 'https://public.crm.example/hook', event: 'message.add' }, { url: 'https://93.184.215.9/hook', event: 'channel.update' }] },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.map((s: { event: string }) => s.event)).toEqual(['message.add', 'channel.status_update']);

    const before = (await t.call('GET', '/v2/webhooks', { token })).json().data;
    const bad = await t.call('POST', '/v2/webhooks', {
      token,
      body: {
        data: [
          { url: 'https://public.crm.example/a', event: 'message.add' },
          { url: 'https://private.crm.example/b', event: 'message.add' },
          { url: 'http://public.crm.example/c', event: 'message.add' },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['data.1.url', 'data.2.url']);
    expect((await t.call('GET', '/v2/webhooks', { token })).json().data).toEqual(before);

    const patch = await t.call('PATCH', '/v2/webhooks', { token, body: { data: [{ id: before[0].id, url: 'https://[fd00::7]/x', event: 'message.add' }] } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().data.fields).toEqual([{ field: 'data.0.url', message: 'unique local addresses are not allowed' }]);
    expect((await t.call('GET', '/v2/webhooks', { token })).json().data).toEqual(before);
  });

  it('checks the address again when delivering: a name re-pointed at a private address after subscribing is never connected to', async () => {
    const { accountId, token: own } = await t.newAccount();
    const res = await t.call('POST', '/v2/webhooks', { token: own, body: { data: [{ url: 'https://rebind.crm.example/hook', event: 'message.add' }] } });
    expect(res.statusCode).toBe(201);
    const id = res.json().data[0].id as string;
    table['rebind.crm.example'] = ['10.9.9.9'];
    await recordEvents(t, new ManualClock(Date.now()), accountId, [{ name: 'message.add', orderingKey: 'chat:x:1', payload: { n: 1 } }]);
    const [attempt] = await eventually(async () => {
      const data = (await t.call('GET', `/v2/webhooks/${id}/attempts`, { token: own })).json().data as unknown[];
      return data.length > 0 ? data : undefined;
    });
    expect(attempt).toMatchObject({
      status_code: null,
      outcome: 'retry',
      error: 'address not allowed: rebind.crm.example resolves to 10.9.9.9: private addresses are not allowed',
    });
  });
});
