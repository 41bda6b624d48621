import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`error bodies (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway();
    ({ token } = await t.newAccount());
  });
  afterAll(() => t.close());

  it('answers 500 with only a code, a generic description and the request id, whatever the failure said', async () => {
    const webhooks = t.gateway.store.webhooks;
    const original = webhooks.list;
    webhooks.list = async () => {
      throw new Error('relation "webhook_subscriptions" does not exist at /srv/gateway/src/secret.ts:42 password=hunter2');
    };
    try {
      const res = await t.call('GET', '/v2/webhooks', { token, headers: { 'x-request-id': 'req-12345678' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'INTERNAL_ERROR', description: 'Internal server error', data: { request_id: 'req-12345678' } });
      expect(res.headers['x-request-id']).toBe('req-12345678');
      for (const leak of ['relation', 'secret.ts', 'hunter2', 'stack', 'Error']) expect(res.body).not.toContain(leak);
    } finally {
      webhooks.list = original;
    }
  });

  it('names each failing field of a body that breaks the schema', async () => {
    const res = await t.call('POST', '/v2/webhooks', {
      token,
      body: { data: [{ url: 42, event: 'message.nope' }, { event: 'message.add' }], extra: true },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('VALIDATION_ERROR');
    const fields = (body.data.fields as { field: string }[]).map((f) => f.field);
    // An unknown event name is not a schema failure: it is refused on its own (meta.refused) when the rest is valid.
    expect(fields).toEqual(expect.arrayContaining(['data.0.url', 'data.1.url', 'extra']));
  });

  it('refuses the NUL character, which the database cannot store, naming the field, in a body and in a query', async () => {
    const res = await t.call('POST', '/v2/messages', {
      token,
      body: { channel_id: '00000000-0000-4000-8000-000000000000', recipient: { chat_type: 'whatsapp', chat_id: '79005550001', name: 'Ann\u0000a' }, text: 'hi' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'recipient.name', message: 'must not contain the NUL character (U+0000)' }]);
    const account = await t.call('POST', '/v2/accounts', { token: t.partnerKey, body: { name: 'a\u0000b' } });
    expect(account.json().data.fields).toEqual([{ field: 'name', message: 'must not contain the NUL character (U+0000)' }]);
    const listed = await t.call('GET', '/v2/contacts?after=x%00y', { token });
    expect(listed.statusCode).toBe(400);
    expect(listed.json().data.fields).toEqual([{ field: 'querystring.after', message: 'must not contain the NUL character (U+0000)' }]);
  });

  it('refuses a string where a number would be coerced and a value outside an enum', async () => {
    const res = await t.call('POST', `/v2/accounts`, { token: t.partnerKey, body: { name: 123 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'name', message: 'must be string' }]);
  });

  it('answers 400 VALIDATION_ERROR to malformed JSON and 415 to other content types', async () => {
    const bad = await t.gateway.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"data": [',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'VALIDATION_ERROR', description: expect.any(String) });
    const xml = await t.gateway.app.inject({
      method: 'POST',
      url: '/v2/webhooks',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
      payload: '<data/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('takes an empty body sent as JSON for no body: a DELETE goes through, a POST is told what it lacks', async () => {
    const asJson = (method: 'DELETE' | 'POST', url: string) =>
      t.gateway.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '' });
    const missing = await asJson('DELETE', `/v2/messages/${crypto.randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('MESSAGE_NOT_FOUND');
    const post = await asJson('POST', '/v2/webhooks');
    expect(post.statusCode).toBe(400);
    expect(post.json().error).toBe('VALIDATION_ERROR');
  });

  it('answers 404 NOT_FOUND for an unknown route', async () => {
    const res = await t.call('GET', '/v2/nothing-here', { token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', description: expect.any(String) });
  });

  it('refuses subscription URLs that are not HTTPS, all or nothing', async () => {
    const res = await t.call('POST', '/v2/webhooks', {
      token,
      body: {
        data: [
          { url: 'https://crm.example.com/ok', event: 'message.add' },
          { url: 'http://crm.example.com/plain', event: 'message.add' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'WEBHOOK_URL_NOT_ALLOWED', data: { fields: [{ field: 'data.1.url' }] } });
    expect((await t.call('GET', '/v2/webhooks', { token })).json().data).toEqual([]);
  });

  it('answers 403 TOO_MANY_ENTITIES beyond 100 items in one call', async () => {
    const data = Array.from({ length: 101 }, (_, i) => ({ url: `https://crm.example.com/${i}`, event: 'message.add' }));
    const res = await t.call('POST', '/v2/webhooks', { token, body: { data } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('TOO_MANY_ENTITIES');
  });

  it('serves the OpenAPI document with the error model', async () => {
    const res = await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v2/webhooks', '/v2/accounts', '/v2/accounts/{account_id}/tokens']));
    expect(doc.paths['/v2/webhooks'].get.responses['401']).toBeDefined();
  });
});
