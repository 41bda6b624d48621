import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsCipher } from '../storage/credentials-cipher.ts';
import { startAvitoEmulator, type AvitoEmulator } from '../testing/avito-emulator.ts';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const APP = { clientId: 'gw-avito-app', clientSecret: 'avito-app-secret-0123456789' };
const SECRET_KEY = 'k'.repeat(40);
const QUICK = { bot: { limit: 100, interval: 1000 }, chat: { limit: 100, interval: 1000 } };
const SHOP = { id: 94235311, name: 'Acme Shop' };
const CUSTOMER = 777001;
const CHAT = 'u2i-Zr9Qd~x1';
const DAY_MS = 86_400_000;

describe(`live avito sends (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let avito: AvitoEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;

  beforeAll(async () => {
    avito = await startAvitoEmulator(APP, clock);
    avito.addAccount(SHOP);
    const env = { AVITO_API_URL: avito.url, AVITO_CLIENT_ID: APP.clientId, AVITO_CLIENT_SECRET: APP.clientSecret, SECRET_KEY };
    ({ t } = await startLiveGateway(env, { clock, avitoLimits: QUICK }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'avito', credentials: { code: avito.issueCode(SHOP.id) } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
    await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: CUSTOMER, content: { text: 'Здравствуйте! Велосипед ещё продаётся?' } });
  });
  afterAll(async () => {
    await t?.close();
    await avito?.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'avito', chat_id: CHAT }, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.request_id as string;
  };
  const outcome = async (requestId: string) => {
    const m = await settled(t, requestId, ['sent', 'failed']);
    return m.status === 'failed' ? `failed:${m.reason}` : m.status;
  };
  const callsTo = (suffix: string) => avito.calls.filter((c) => c.path.endsWith(suffix));
  const sealedNow = async () => (await sql<{ credentials: string }>`select credentials from channels where id = ${channelId}`.execute(t.gateway.database.db)).rows[0]!.credentials;
  const accessTokenNow = async () => credentialsCipher(SECRET_KEY).open(await sealedNow()).access_token as string;
  const outboundWith = async (text: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId} and direction = 'outbound' and text = ${text}`.execute(t.gateway.database.db)).rows[0]!.n;

  it('sends a text as the account, ends it sent, and does not take Avito’s report of it for a message written elsewhere', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const requestId = await send({ text: 'Да, продаётся.' });
    expect(await outcome(requestId)).toBe('sent');
    expect(await statusTrail(t, requestId)).toEqual(['sent']);
    expect(callsTo('/messages').at(-1)).toMatchObject({ path: `/messenger/v1/accounts/${SHOP.id}/chats/${encodeURIComponent(CHAT)}/messages`, token: await accessTokenNow(), body: { message: { text: 'Да, продаётся.' }, type: 'text' } });
    await avito.settle();
    expect((await stream.since()).map((e) => e.name)).toEqual(['message.status_update']);
    expect(await outboundWith('Да, продаётся.')).toBe(1);

    // Reported before the send's answer, while the send is under way: not taken yet (503), and once posted again
    // after the answer is recorded, found by its number.
    avito.echoSends('before');
    const answered = avito.echoAnswers.length;
    const raced = await send({ text: 'Можно посмотреть завтра.' });
    expect(await outcome(raced)).toBe('sent');
    await avito.settle();
    expect(avito.echoAnswers.slice(answered)[0]).toBe(503);
    expect(avito.echoAnswers.at(-1)).toBe(200);
    expect((await stream.since()).map((e) => e.name)).toEqual(['message.status_update']);
    expect(await outboundWith('Можно посмотреть завтра.')).toBe(1);
    avito.echoSends('after');
  });

  it('uploads a picture before sending it, and refuses what Avito cannot carry without asking it', async () => {
    const photo = avito.hostFile('bike.jpg', Buffer.from('JPEG bytes of a bike'), 'image/jpeg');
    const picture = await send({ attachment: { url: photo, name: 'bike.jpg' } });
    expect(await outcome(picture)).toBe('sent');
    const upload = avito.uploads.at(-1)!;
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body).toContain('name="uploadfile[]"; filename="bike.jpg"');
    expect(upload.body).toContain('JPEG bytes of a bike');
    expect(callsTo('/messages/image').at(-1)!.body).toEqual({ image_id: expect.stringMatching(/^94235311\.img/) });

    const calls = avito.calls.length;
    const pdf = avito.hostFile('offer.pdf', Buffer.from('%PDF-1.7'), 'application/pdf');
    expect(await outcome(await send({ attachment: { url: pdf, mimetype: 'application/pdf' } }))).toBe('failed:bad_content');
    // A file that says nothing of its type is told by its server's.
    const page = avito.hostFile('picture', Buffer.from('<html>'), 'text/html');
    expect(await outcome(await send({ attachment: { url: page } }))).toBe('failed:bad_content');
    expect(await outcome(await send({ text: 'я'.repeat(1001) }))).toBe('failed:text_length_is_too_much');
    expect(avito.calls.length).toBe(calls);
    expect(await outcome(await send({ attachment: { url: `${avito.url}/files/gone.jpg` } }))).toBe('failed:can_not_get_content');
  });

  it('says why Avito refused a send, and sends again no sooner than Avito asked when it is busy', async () => {
    await avito.customerWrites(SHOP.id, { chatId: 'u2i-blocked', authorId: 777002, content: { text: 'Не пишите мне' } });
    avito.block('u2i-blocked');
    const grants = avito.grants.length;
    const blocked = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'avito', chat_id: 'u2i-blocked' }, text: 'Ещё актуально?' } });
    expect(await outcome(blocked.json().data.request_id)).toBe('failed:chat_is_blocked');
    // Avito still said whose the token is: the chat refused the send, and the token was not renewed for it.
    expect(callsTo('/accounts/self').at(-1)!.token).toBe(await accessTokenNow());
    expect(avito.grants.length).toBe(grants);
    const stranger = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'avito', chat_id: 'u2i-nobody' }, text: 'Здравствуйте' } });
    expect(await outcome(stranger.json().data.request_id)).toBe('failed:messages_not_text_first');

    const before = callsTo('/messages').length;
    avito.failNext('send', 1, 429, 30);
    const busy = await send({ text: 'Цена окончательная.' });
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${busy} and send_lease_until is null`.execute(t.gateway.database.db);
      return rows[0]?.send_after ?? undefined;
    });
    expect(due.getTime() - clock.now().getTime()).toBe(30_000);
    clock.advance(30_000);
    t.gateway.wakeSends();
    expect(await outcome(busy)).toBe('sent');
    expect(callsTo('/messages').length - before).toBe(2);
    expect(await statusTrail(t, busy)).toEqual(['sent']);
  });

  it('renews the token once its day is over, once for sends made at the same time, and keeps the new pair', async () => {
    const old = await accessTokenNow();
    const renewals = () => avito.grants.filter((g) => g.grant_type === 'refresh_token').length;
    const before = renewals();
    // Three chats, so that their sends go at once (a chat's own go one after another).
    const chats = ['u2i-a', 'u2i-b', 'u2i-c'];
    for (const chatId of chats) await avito.customerWrites(SHOP.id, { chatId, authorId: CUSTOMER, content: { text: 'Здравствуйте' } });
    clock.advance(DAY_MS);
    const sends = await Promise.all(
      chats.map(async (chatId) => (await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'avito', chat_id: chatId }, text: 'Продаётся' } })).json().data.request_id as string),
    );
    for (const requestId of sends) expect(await outcome(requestId)).toBe('sent');
    expect(renewals() - before).toBe(1);
    const renewed = await accessTokenNow();
    expect(renewed).not.toBe(old);
    expect(callsTo('/messages').slice(-3).map((c) => c.token)).toEqual([renewed, renewed, renewed]);
  });

  it('renews the token when Avito says it expired sooner, and sends again with the new one', async () => {
    const old = await accessTokenNow();
    avito.expire(SHOP.id);
    const requestId = await send({ text: 'Жду вас в 18:00.' });
    expect(await outcome(requestId)).toBe('sent');
    const renewed = await accessTokenNow();
    expect(renewed).not.toBe(old);
    const tries = callsTo('/messages').slice(-2);
    expect(tries.map((c) => c.token)).toEqual([old, renewed]);
    // The 403 was told apart from a refusal of the chat by asking Avito whose the token is.
    expect(callsTo('/accounts/self').at(-1)!.token).toBe(old);
  });

  it('switches the channel off when Avito will not renew its authorization; its messages are then taken and dropped', async () => {
    avito.withdraw(SHOP.id);
    clock.advance(DAY_MS);
    const refused = await send({ text: 'Вы здесь?' });
    expect(await outcome(refused)).toBe('failed:session_revoked');
    expect((await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    const later = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'avito', chat_id: CHAT }, text: 'Алло?' } });
    expect(later.statusCode).toBe(409);

    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await avito.customerWrites(SHOP.id, { chatId: CHAT, authorId: CUSTOMER, id: 'm-while-off', content: { text: 'Ответьте!' } })).toBe(200);
    expect(await stream.since()).toEqual([]);
  });
});
