import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { linkOf } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** Frame links requested the way the original service's clients request them, and the shapes kept from before. */
describe(`frame links as the service's clients send them (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let telegram: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    telegram = await activeChannel(t, channelClient(t, a.token), 'telegram');
  });
  afterAll(() => t.close());

  const link = async (kind: 'chats' | 'channels', body: unknown) => {
    const res = await t.call('POST', `/v2/iframe-links/${kind}`, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };
  /** Opens the frame as the widget does, and reads what the session says it is. */
  const sessionOf = async (url: string) => {
    const opened = await t.call('POST', '/bff/session', { body: { link: linkOf(url) } });
    expect(opened.statusCode).toBe(201);
    const info = await t.call('GET', '/bff/session', { token: opened.json().data.token });
    return info.json().data;
  };

  it('takes a flat user_id and author_name, use_events and client_type, and answers link beside url and expires_at', async () => {
    const res = await link('chats', {
      user_id: 'crm-7',
      author_name: 'Olga Operator',
      scope: 'global',
      active_chat: { channel_id: telegram, chat_type: 'telegram', chat_id: '5550001' },
      use_events: { messages: true, deals: false },
      client_type: 'amocrm',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['expires_at', 'link', 'url']);
    expect(res.body.data.link).toBe(res.body.data.url);
    expect(res.body.data.link).toMatch(/\/embed\/chats\?link=/);
    const session = await sessionOf(res.body.data.link);
    expect(session).toMatchObject({
      kind: 'chats',
      scope: 'global',
      user: { id: 'crm-7', name: 'Olga Operator' },
      active_chat: { channel_id: telegram, chat_type: 'telegram', chat_id: '5550001' },
      use_events: { messages: true, deals: false },
      client_type: 'amocrm',
    });
    // author_name names the user as POST /v2/users does.
    expect((await t.call('GET', '/v2/users?id=crm-7', { token: a.token })).json().data).toMatchObject([{ id: 'crm-7', name: 'Olga Operator' }]);
  });

  it('opens a card by usernames: chats[].username and active_chat.username', async () => {
    const res = await link('chats', {
      user_id: 'crm-7',
      scope: 'card',
      chats: [
        { chat_type: 'telegram', username: 'buyer_bob', contact_name: 'Bob' },
        { chat_type: 'whatsapp', chat_id: '79001112233', contact_name: 'Wanda' },
      ],
      active_chat: { chat_type: 'telegram', username: '@buyer_bob' },
    });
    expect(res.status).toBe(201);
    const session = await sessionOf(res.body.data.link);
    expect(session.chats).toEqual([
      { chat_type: 'telegram', username: 'buyer_bob' },
      { chat_type: 'whatsapp', chat_id: '79001112233' },
    ]);
    expect(session.active_chat).toEqual({ chat_type: 'telegram', chat_id: 'buyer_bob', username: 'buyer_bob' });
    // Without use_events the frame posts every bridge message, as before.
    expect(session.use_events).toEqual({ messages: true, deals: true });
  });

  it('takes chats as the service\'s clients fill them: chat_id beside username, empty fields, a numeric user id', async () => {
    const res = await link('chats', {
      user_id: 42,
      author_name: 'Numeric Nick',
      scope: 'card',
      chats: [
        { chat_type: 'telegram', chat_id: '5550002', username: 'carol', contact_name: 'Carol' },
        { chat_type: 'whatsapp', chat_id: '79001112244', username: '', contact_name: null },
      ],
      active_chat: { channel_id: null, chat_type: 'whatsapp', chat_id: '79001112244', username: '' },
      use_events: { messages: false, deals: true },
      client_type: '',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const session = await sessionOf(res.body.data.link);
    expect(session).toMatchObject({ user: { id: '42', name: 'Numeric Nick' }, use_events: { messages: false, deals: true }, client_type: null });
    expect(session.chats).toEqual([
      { chat_type: 'telegram', chat_id: '5550002', username: 'carol' },
      { chat_type: 'whatsapp', chat_id: '79001112244' },
    ]);
    expect(session.active_chat).toEqual({ chat_type: 'whatsapp', chat_id: '79001112244' });
  });

  it('keeps the nested user working, and refuses a link for nobody', async () => {
    const nested = await link('chats', { user: { id: 'crm-8', name: 'Nick' }, scope: 'global', options: { lang: 'ru' } });
    expect(nested.status).toBe(201);
    expect(await sessionOf(nested.body.data.url)).toMatchObject({ user: { id: 'crm-8', name: 'Nick' }, options: { lang: 'ru' }, client_type: null });

    const nobody = await link('chats', { scope: 'global' });
    expect(nobody.status).toBe(400);
    expect(nobody.body).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'user_id' }] } });
    const active = await link('chats', { user_id: 'x', scope: 'global', active_chat: { chat_type: 'whatsapp', username: 'bob' } });
    expect(active.status).toBe(400);
  });

  it('opens the connect frame on a transport or a channel given in options, answering link', async () => {
    const byTransport = await link('channels', { options: { transport: 'telegram' } });
    expect(byTransport.status).toBe(201);
    expect(byTransport.body.data.link).toMatch(/\/embed\/channels\?link=/);
    expect(byTransport.body.data.url).toBe(byTransport.body.data.link);
    expect(await sessionOf(byTransport.body.data.link)).toMatchObject({ kind: 'channels', transport: 'telegram', channel_id: null, options: {} });

    const byChannel = await link('channels', { options: { transport: 'telegram', channel_id: telegram } });
    expect(byChannel.status).toBe(201);
    expect(await sessionOf(byChannel.body.data.link)).toMatchObject({ transport: 'telegram', channel_id: telegram });

    const old = await link('channels', { user: { id: 'crm-7' }, transport: 'whatsapp', options: { theme: 'dark' } });
    expect(old.status).toBe(201);
    expect(await sessionOf(old.body.data.link)).toMatchObject({ transport: 'whatsapp', options: { theme: 'dark' }, user: { id: 'crm-7' } });

    expect((await link('channels', { options: { transport: 'whatsapp', channel_id: telegram } })).status).toBe(400);
    expect((await link('channels', { options: { channel_id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
  });
});
