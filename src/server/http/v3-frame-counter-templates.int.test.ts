import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOf } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Account } from '../testing/v3-account.ts';

// POST /v3/iframe, GET /v3/unanswered/:userId, GET /v3/templates/whatsapp (§10–§12), and the trailing slash on both faces.
describe(`v3 chat window, counter and templates (${databaseKind()})`, () => {
  let t: TestGateway;
  let apiKey: string;
  let sidecarKey: string;
  let whatsapp: string;

  beforeAll(async () => {
    t = await startTestGateway();
    let channels: Record<string, string>;
    ({ apiKey, sidecarKey, channels } = await v3Account(t, ['whatsapp']));
    whatsapp = channels.whatsapp!;
  });
  afterAll(() => t.close());

  it('POST /v3/iframe answers {url} whose session carries the user, the card, the active chat and the options', async () => {
    const res = await t.call('POST', '/v3/iframe/', {
      token: apiKey,
      body: {
        user: { id: 42, name: 'Anna' },
        scope: 'card',
        filter: [{ chatType: 'whatsapp', chatId: '79001112233', name: 'Ivan' }],
        activeChat: { channelId: whatsapp, chatType: 'whatsapp', chatId: '79001112233' },
        options: { clientType: 'amocrm', useDealsEvents: true, useMessageEvents: false },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['url']);
    const session = await t.call('POST', '/bff/session', { body: { link: linkOf(res.json().url) } });
    expect(session.statusCode, session.body).toBe(201);
    expect(session.json().data.session).toMatchObject({
      kind: 'chats',
      user: { id: '42', name: 'Anna' },
      scope: 'card',
      chats: [{ chat_type: 'whatsapp', chat_id: '79001112233' }],
      active_chat: { channel_id: whatsapp, chat_type: 'whatsapp', chat_id: '79001112233' },
      use_events: { deals: true, messages: false },
      client_type: 'amocrm',
    });
  });

  it('refuses a card window without chats, and a sidecar key', async () => {
    const res = await t.call('POST', '/v3/iframe', { token: apiKey, body: { user: { id: '1' }, scope: 'card' } });
    expect(res.statusCode).toBe(400);
    const sidecar = await t.call('POST', '/v3/iframe', { token: sidecarKey, body: { user: { id: '1' }, scope: 'global' } });
    expect(sidecar.body).toBe('{"error":"FORBIDDEN"}');
  });

  it('GET /v3/unanswered/:userId counts waiting chats with the time of the latest message', async () => {
    const none = await t.call('GET', '/v3/unanswered/42', { token: apiKey });
    expect(none.json()).toEqual({ counterV2: 0, type: null, lastMsgDateTime: null });
    await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token: apiKey, body: { chat_type: 'whatsapp', chat_id: '79001112244', text: 'hello?' } });
    const res = await t.call('GET', '/v3/unanswered/42/', { token: apiKey });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ counterV2: 1, type: 'red' });
    expect(new Date(body.lastMsgDateTime).toISOString()).toBe(body.lastMsgDateTime);
  });

  it('GET /v3/templates/whatsapp is a bare array a sidecar key may read', async () => {
    const res = await t.call('GET', '/v3/templates/whatsapp?limit=10&offset=0', { token: sidecarKey });
    expect(res.statusCode, res.body).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });

  it('takes a trailing slash on every GET route of both faces in the reference, and documents both faces', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/v3/channels', '/v3/message', '/v3/message/{messageId}', '/v3/iframe', '/v3/contacts', '/v2/channels']));
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!/^\/v[23]\//.test(path)) continue;
      for (const op of Object.values(methods)) {
        if (path.startsWith('/v3')) expect(op.tags?.every((tag) => tag.startsWith('v3 ')) && op.tags.length > 0, path).toBe(true);
        else expect(op.tags?.some((tag) => tag.startsWith('v3 ')) ?? false, path).toBe(false);
      }
      // A Server-Sent Events stream stays open: the scope walk reads its status over HTTP.
      if (!methods.get || path.includes('{') || path.includes('download') || JSON.stringify(methods.get).includes('text/event-stream')) continue;
      const [plain, slashed] = await Promise.all([t.call('GET', path, { token: apiKey }), t.call('GET', `${path}/`, { token: apiKey })]);
      expect(slashed.statusCode, path).toBe(plain.statusCode);
      expect(slashed.statusCode, path).not.toBe(404);
    }
  });
});
