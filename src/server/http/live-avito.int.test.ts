import { createHmac, hkdfSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsCipher } from '../storage/credentials-cipher.ts';
import { startAvitoEmulator, type AvitoEmulator } from '../testing/avito-emulator.ts';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

const APP = { clientId: 'gw-avito-app', clientSecret: 'avito-app-secret-0123456789' };
const SECRET_KEY = 'k'.repeat(40);
const AVITO_ENV = (url: string) => ({ AVITO_API_URL: url, AVITO_CLIENT_ID: APP.clientId, AVITO_CLIENT_SECRET: APP.clientSecret, SECRET_KEY });
/** The secret in the address Avito is given for a channel, as the gateway derives it from its key. */
const secretOf = (channelId: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', SECRET_KEY, 'messaging-gateway', 'avito-webhook-secrets/v1', 32))).update(channelId).digest('base64url');

/** Avito's own pace is a call a second per account; these tests make many calls with few accounts. */
const QUICK = { bot: { limit: 100, interval: 1000 }, chat: { limit: 100, interval: 1000 } };

const SHOP = { id: 94235311, name: 'Acme Shop', phone: '79001112233' };
const OTHER_SHOP = { id: 50505050, name: 'Acme Outlet' };
const CUSTOMER = 777001;
const CHAT = 'u2i-Zr9Qd~x1';

describe(`live avito (${databaseKind()})`, () => {
  let avito: AvitoEmulator;
  let t: TestGateway;
  let base: string;
  let token: string;
  let accountId: string;
  let channelId: string;

  beforeAll(async () => {
    avito = await startAvitoEmulator(APP);
    avito.addAccount(SHOP);
    avito.addAccount(OTHER_SHOP);
    ({ t, base } = await startLiveGateway(AVITO_ENV(avito.url), { avitoLimits: QUICK }));
    ({ token, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
    await avito?.close();
  });

  const hookOf = (id: string) => `${base}/hooks/avito/${id}?secret=${secretOf(id)}`;
  const connect = (code: string) => t.call('POST', '/v2/channels', { token, body: { transport: 'avito', credentials: { code } } });
  const channelCount = async () => (await t.call('GET', '/v2/channels', { token })).json().data.length as number;
  const stored = async (id: string) => (await sql<{ credentials: string }>`select credentials from channels where id = ${id}`.execute(t.gateway.database.db)).rows[0]!.credentials;
  const message = (id: string, fields: Record<string, unknown>) => ({
    id: `wh-${id}`,
    version: 'v3.0.0',
    timestamp: 1_795_000_000,
    payload: { type: 'message', value: { id, chat_id: CHAT, user_id: SHOP.id, author_id: CUSTOMER, created: 1_795_000_000, type: 'text', chat_type: 'u2i', ...fields } },
  });

  it('connects an account by its code: the tokens it is exchanged for are kept sealed, never shown, and Avito learns where to post', async () => {
    const res = await connect(avito.issueCode(SHOP.id));
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
    const channel = await t.call('GET', `/v2/channels/${channelId}`, { token });
    expect(channel.json().data[0]).toMatchObject({ transport: 'avito', status: 'active', messenger_id: String(SHOP.id), name: 'Acme Shop', phone: SHOP.phone });
    expect(channel.body).not.toMatch(/acc-|ref-|code-/);
    expect(avito.grants.map((g) => g.grant_type)).toEqual(['authorization_code']);
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([hookOf(channelId)]);
    // The code is spent at Avito: what is kept is the pair it gave, sealed under the gateway's key.
    const sealed = await stored(channelId);
    expect(sealed).not.toMatch(/acc-|ref-/);
    expect(credentialsCipher(SECRET_KEY).open(sealed)).toEqual({ access_token: expect.stringMatching(/^acc-/), refresh_token: expect.stringMatching(/^ref-/), expires_at: expect.any(Number), user_id: String(SHOP.id) });
    const frame = await openFrame(t, token, 'channels', {});
    const offered = (await t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
    expect(offered.filter((x) => x.creatable).map((x) => x.transport).sort()).toEqual(['avito', 'maxbot', 'telegram']);
  });

  it('refuses a code Avito does not take, or one of another form, by its field, and says when Avito is out of reach; nothing is stored', async () => {
    const before = await channelCount();
    for (const code of [`code-${SHOP.id}-999`, 'never-issued-code']) {
      const refused = await connect(code);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'credentials.code', message: 'was not accepted by Avito' }] } });
    }
    expect((await connect('two words')).json().data.fields).toEqual([{ field: 'credentials.code', message: 'is not an authorization code' }]);
    avito.failNext('token', 1, 503);
    const away = await connect(avito.issueCode(SHOP.id));
    expect(away.statusCode).toBe(503);
    expect(away.json().error).toBe('SERVICE_UNAVAILABLE');
    expect(await channelCount()).toBe(before);
  });

  it('refuses Avito channels, by their transport and naming the settings, on a gateway without an Avito application', async () => {
    const bare = await startLiveGateway({ SECRET_KEY });
    try {
      const { token: other } = await bare.t.newAccount();
      const res = await bare.t.call('POST', '/v2/channels', { token: other, body: { transport: 'avito', credentials: { code: 'some-code' } } });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.fields).toEqual([{ field: 'transport', message: expect.stringContaining('AVITO_CLIENT_ID and AVITO_CLIENT_SECRET') }]);
      const frame = await openFrame(bare.t, other, 'channels', {});
      const offered = (await bare.t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
      expect(offered.find((x) => x.transport === 'avito')?.creatable).toBe(false);
    } finally {
      await bare.t.close();
    }
  });

  it('records what customers write, each message once, only with the channel’s secret in the address', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: CUSTOMER, id: 'm-hello', content: { text: 'Здравствуйте! Велосипед ещё продаётся?' } })).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add');
    expect(added.map((e) => e.payload)).toEqual([
      expect.objectContaining({ channel_id: channelId, direction: 'inbound', text: 'Здравствуйте! Велосипед ещё продаётся?', recipient: expect.objectContaining({ chat_type: 'avito', chat_id: CHAT }) }),
    ]);
    // Posted again (Avito did not get the answer): taken, and the message stays one.
    expect(await avito.notify(SHOP.id, message('m-hello', { content: { text: 'Здравствуйте! Велосипед ещё продаётся?' } }))).toBe(200);
    expect(await stream.since()).toEqual([]);

    // Another secret, or none: refused before anything is read.
    const forged = message('m-forged', { content: { text: 'forged' } });
    expect(await avito.notify(SHOP.id, forged, `${base}/hooks/avito/${channelId}?secret=${'x'.repeat(43)}`)).toBe(401);
    expect(await avito.notify(SHOP.id, forged, `${base}/hooks/avito/${channelId}`)).toBe(401);
    // Avito's own check of a new address (`-d '{}'`), a system message, a voice note, another account's message: taken and dropped.
    expect(await avito.notify(SHOP.id, {}, hookOf(channelId))).toBe(200);
    expect(await avito.notify(SHOP.id, message('m-system', { type: 'system', author_id: 0, content: { text: 'Покупатель посмотрел ваш номер', flow_id: 'x' } }))).toBe(200);
    expect(await avito.notify(SHOP.id, message('m-voice', { type: 'voice', content: { voice: { voice_id: 'v1' } } }))).toBe(200);
    expect(await avito.notify(SHOP.id, message('m-other', { user_id: OTHER_SHOP.id, content: { text: 'not this channel’s' } }))).toBe(200);
    expect(await stream.since()).toEqual([]);
    // A channel not stored yet (its address is given to Avito just before): Avito is asked to post it again.
    const unborn = '0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a';
    expect(await avito.notify(SHOP.id, message('m-early', { content: { text: 'early' } }), hookOf(unborn))).toBe(503);
  });

  it('records a customer’s picture by Avito’s own address of its largest size, and a link as words', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const sizes = { '140x105': 'https://img.k.avito.ru/chat/140x105/5083651369.3e79.jpg', '1280x960': 'https://img.k.avito.ru/chat/1280x960/5083651369.3e79.jpg', '640x480': 'https://img.k.avito.ru/chat/640x480/5083651369.3e79.jpg' };
    expect(await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: CUSTOMER, id: 'm-photo', type: 'image', content: { image: { sizes } } })).toBe(200);
    expect(await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: CUSTOMER, id: 'm-link', type: 'link', content: { link: { text: 'https://example.com/bike', url: 'https://example.com/bike' } } })).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
    expect(added).toMatchObject([
      { direction: 'inbound', attachment: { url: sizes['1280x960'], mimetype: 'image/jpeg' } },
      { direction: 'inbound', text: 'https://example.com/bike' },
    ]);
  });

  it('records a message the account wrote in Avito’s app as outbound, resetting the chat’s unanswered count', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: SHOP.id, id: 'm-from-app', content: { text: 'Да, продаётся. Приезжайте.' } })).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
    expect(added).toMatchObject([{ direction: 'outbound', text: 'Да, продаётся. Приезжайте.', recipient: { chat_type: 'avito', chat_id: CHAT } }]);
    const { rows } = await sql<{ unanswered: number }>`select unanswered from chats where channel_id = ${channelId} and chat_id = ${CHAT}`.execute(t.gateway.database.db);
    expect(rows[0]!.unanswered).toBe(0);
  });

  it('keeps one subscription of the account to this gateway, and a reinit with another account lets the former one go', async () => {
    const owners = 'https://crm.example.com/avito-hook';
    avito.addSubscription(SHOP.id, owners);
    const second = await connect(avito.issueCode(SHOP.id));
    expect(second.statusCode, second.body).toBe(201);
    const secondId = second.json().data[0].channel_id as string;
    // Each address gets every message: without the first channel's removed, each would be recorded in both.
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([owners, hookOf(secondId)]);
    const back = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { code: avito.issueCode(SHOP.id) } } });
    expect(back.statusCode, back.body).toBe(200);
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([owners, hookOf(channelId)]);
    expect((await t.call('DELETE', `/v2/channels/${secondId}`, { token })).statusCode).toBe(200);

    const moved = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { code: avito.issueCode(OTHER_SHOP.id) } } });
    expect(moved.json().data[0]).toMatchObject({ status: 'active', messenger_id: String(OTHER_SHOP.id), name: 'Acme Outlet' });
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([owners]);
    expect(avito.subscriptionsOf(OTHER_SHOP.id)).toEqual([hookOf(channelId)]);
  });

  it('lets the account go when its channel is deleted: its subscription is removed, and a late message is not recorded', async () => {
    expect((await t.call('DELETE', `/v2/channels/${channelId}`, { token })).statusCode).toBe(200);
    await eventually(async () => (avito.subscriptionsOf(OTHER_SHOP.id).length === 0 ? true : undefined));
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await avito.notify(OTHER_SHOP.id, message('m-late', { user_id: OTHER_SHOP.id, content: { text: 'Hello?' } }), hookOf(channelId))).toBe(503);
    expect(await stream.since()).toEqual([]);
  });
});
