import { createHmac, hkdfSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled, statusTrail, TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const update = (updateId: number, message: Record<string, unknown>) => ({ update_id: updateId, message: { date: 1_795_000_000, ...message } });
const NEW_TOKEN = `123456789:${'N'.repeat(35)}`;
const OTHER_BOT_TOKEN = `555000111:${'O'.repeat(35)}`;
const SECRET_KEY = 'k'.repeat(40);
/** The secret Telegram is given for a channel, as the gateway derives it from its key. */
const secretOf = (channelId: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', SECRET_KEY, 'messaging-gateway', 'telegram-webhook-secrets/v1', 32))).update(channelId).digest('base64url');
const anna = { id: 4242, is_bot: false, first_name: 'Anna', last_name: 'Kravets', username: 'anna_k' };

describe(`live telegram bots (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;
  let base: string;

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    ({ t, base } = await startLiveGateway({ TELEGRAM_API_URL: telegram.url, SECRET_KEY }));
    ({ token, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
    await telegram?.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { request_id: string };
  };
  const callsOf = (method: string) => telegram.calls.filter((c) => c.method === method);

  it('connects a bot by its token: Telegram says whose it is and learns where to post its updates', async () => {
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
    const channel = (await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0];
    expect(channel).toMatchObject({ status: 'active', username: 'acme_shop_bot', name: 'Acme Shop' });
    const hook = telegram.webhookOf(TELEGRAM_TOKEN)!;
    expect(hook.url).toBe(`${base}/hooks/telegram/${channelId}`);
    expect(hook.secret).toBe(secretOf(channelId));
    expect(callsOf('setWebhook').at(-1)!.params.allowed_updates).toEqual(['message', 'edited_message', 'callback_query', 'message_reaction']);
  });

  it('refuses a token Telegram does not know, and the transports it has no live driver for', async () => {
    const unknown = `987654321:${'Z'.repeat(35)}`;
    const refused = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { telegram_token: unknown } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      data: { fields: [{ field: 'credentials.telegram_token', message: 'was not accepted by Telegram' }] },
    });
    const whatsapp = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    expect(whatsapp.statusCode).toBe(400);
    expect(whatsapp.json().data.fields[0]).toMatchObject({ field: 'transport', message: expect.stringContaining('no live driver') });
    // The connect frame offers only what can be connected.
    const frame = await openFrame(t, token, 'channels', {});
    const offered = (await t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
    expect(offered.filter((x) => x.creatable).map((x) => x.transport)).toEqual(['telegram', 'maxbot']);
  });

  it('records what customers write, each update once it is answered, and only with the channel’s secret', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(1, { message_id: 7, chat: { id: 4242, type: 'private' }, from: anna, text: 'Здравствуйте! Где мой заказ?' }))).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add');
    expect(added).toHaveLength(1);
    expect(added[0]!.payload).toMatchObject({
      channel_id: channelId,
      direction: 'inbound',
      text: 'Здравствуйте! Где мой заказ?',
      recipient: { chat_type: 'telegram', chat_id: '4242', username: 'anna_k', name: 'Anna Kravets' },
    });

    // The same update again (Telegram did not get the answer): taken, and the message stays one.
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(1, { message_id: 7, chat: { id: 4242, type: 'private' }, from: anna, text: 'Здравствуйте! Где мой заказ?' }))).toBe(200);
    expect(await stream.since()).toEqual([]);

    // Another secret: refused, nothing recorded. A sticker (no words) and a bot's message: taken, not recorded.
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(2, { message_id: 8, chat: { id: 4242, type: 'private' }, from: anna, text: 'forged' }), 'x'.repeat(43))).toBe(401);
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(3, { message_id: 9, chat: { id: 4242, type: 'private' }, from: anna, sticker: { file_id: 's', file_unique_id: 'AQADs', type: 'regular', width: 512, height: 512, is_animated: false, is_video: false } }))).toBe(200);
    const bot = { id: 1, is_bot: true, first_name: 'Other bot' };
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(4, { message_id: 10, chat: { id: -1001, type: 'supergroup', title: 'Team' }, from: bot, text: 'beep' }))).toBe(200);
    expect(await stream.since()).toEqual([]);

    const hook = telegram.webhookOf(TELEGRAM_TOKEN)!;
    // No secret at all: refused. Something that is not a message: taken and dropped, not a 500 that Telegram repeats.
    const post = (path: string, body: unknown, secret?: string) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}) }, body: JSON.stringify(body) });
    expect((await post(`/hooks/telegram/${channelId}`, update(6, { message_id: 12, chat: { id: 4242, type: 'private' }, from: anna, text: 'x' }))).status).toBe(401);
    expect((await post(`/hooks/telegram/${channelId}`, { update_id: 7, message: { message_id: 13, from: anna, text: 'no chat' } }, hook.secret)).status).toBe(200);
    expect((await post(`/hooks/telegram/${channelId}`, ['not', 'an', 'update'], hook.secret)).status).toBe(200);
    expect((await post(`/hooks/constructor/${channelId}`, {}, hook.secret)).status).toBe(404);
    expect(await stream.since()).toEqual([]);
    // A channel not stored yet (its webhook is set just before): Telegram is asked to send it again later.
    const unborn = '0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a';
    expect((await post(`/hooks/telegram/${unborn}`, update(8, { message_id: 14, chat: { id: 4242, type: 'private' }, from: anna, text: 'early' }), secretOf(unborn))).status).toBe(503);

    // A group the bot is in is a telegroup chat, named by its title.
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(5, { message_id: 11, chat: { id: -100555, type: 'supergroup', title: 'Acme buyers' }, from: anna, text: 'Hi all' }))).toBe(200);
    expect((await stream.since()).find((e) => e.name === 'message.add')!.payload).toMatchObject({ recipient: { chat_type: 'telegroup', chat_id: '-100555', name: 'Acme buyers' } });
  });

  it('keeps a customer’s photo behind a link of its own (Telegram’s holds the token), its caption as the next message', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    telegram.addFile('photo-large', Buffer.from('JPEG bytes of a receipt'), 'image/jpeg');
    const receipt = update(20, { message_id: 30, chat: { id: 4242, type: 'private' }, from: anna, photo: [{ file_id: 'photo-small', file_unique_id: 'AQADphotoS', width: 90, height: 60 }, { file_id: 'photo-large', file_unique_id: 'AQADphotoL', file_size: 23, width: 800, height: 600 }], caption: 'Мой чек' });
    expect(await telegram.deliver(TELEGRAM_TOKEN, receipt)).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
    expect(added).toHaveLength(2);
    const attachment = (added.find((p) => p.attachment) as { attachment: { url: string; mimetype: string; size: number } }).attachment;
    expect(attachment).toMatchObject({ mimetype: 'image/jpeg', size: 23 });
    expect(attachment.url.startsWith(`${base}/hooks/telegram/${channelId}/files/photo-large?file_unique_id=AQADphotoL&signature=`)).toBe(true);
    expect(attachment.url).not.toContain(TELEGRAM_TOKEN.split(':')[1]);
    expect(added.find((p) => p.text)).toMatchObject({ text: 'Мой чек' });

    const file = await fetch(attachment.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'none'");
    expect(file.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('JPEG bytes of a receipt');
    // A file Telegram serves as octet-stream is typed by its name, and anything but a picture, sound or video is a download.
    telegram.addFile('offer.pdf', Buffer.from('%PDF-1.7'), 'application/octet-stream');
    expect(await telegram.deliver(TELEGRAM_TOKEN, update(21, { message_id: 31, chat: { id: 4242, type: 'private' }, from: anna, document: { file_id: 'offer.pdf', file_unique_id: 'AQADoffer', file_name: 'offer.pdf' } }))).toBe(200);
    const pdf = (await stream.since()).find((e) => e.name === 'message.add')!.payload as { attachment: { url: string; name: string } };
    expect(pdf.attachment.name).toBe('offer.pdf');
    const download = await fetch(pdf.attachment.url);
    expect([download.status, download.headers.get('content-type'), download.headers.get('content-disposition')]).toEqual([200, 'application/pdf', 'attachment']);
    await download.arrayBuffer();
    // The link names its file: another file under the same signature, or an altered one, is refused.
    expect((await fetch(attachment.url.replace('photo-large', 'photo-small'))).status).toBe(403);
    expect((await fetch(`${attachment.url}AA`)).status).toBe(403);
    // Sent again: neither the photo nor its caption is recorded twice.
    expect(await telegram.deliver(TELEGRAM_TOKEN, receipt)).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('sends with the keyboard and quote as the Bot API takes them, then edits (keeping the keyboard) and deletes the message there', async () => {
    const { rows } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id = '7'`.execute(t.gateway.database.db);
    const { request_id } = await send({
      channel_id: channelId,
      recipient: { chat_type: 'telegram', chat_id: '4242' },
      text: 'Ваш заказ в пути.',
      keyboard: { buttons: [[{ text: 'Отследить', url: 'https://track.example.com/42' }]] },
      quoted_message_id: rows[0]!.id,
    });
    const message = await settled(t, request_id, ['sent', 'failed']);
    expect(message.status).toBe('sent');
    expect(await statusTrail(t, request_id)).toEqual(['sent']);
    const sent = callsOf('sendMessage').at(-1)!;
    expect(sent.token).toBe(TELEGRAM_TOKEN);
    const markup = { inline_keyboard: [[{ text: 'Отследить', url: 'https://track.example.com/42' }]] };
    expect(sent.params).toEqual({
      chat_id: '4242',
      text: 'Ваш заказ в пути.',
      reply_markup: markup,
      reply_parameters: { message_id: 7, allow_sending_without_reply: true },
    });

    const edited = await t.call('PATCH', `/v2/messages/${message.id}`, { token, body: { text: 'Ваш заказ доставят завтра.' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(callsOf('editMessageText').at(-1)!.params).toMatchObject({ chat_id: '4242', text: 'Ваш заказ доставят завтра.', message_id: expect.any(Number), reply_markup: markup });
    const removed = await t.call('DELETE', `/v2/messages/${message.id}`, { token });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(callsOf('deleteMessage').at(-1)!.params).toEqual({ chat_id: '4242', message_id: callsOf('editMessageText').at(-1)!.params.message_id });
  });

  it('spaces a campaign out to Telegram’s limit of 30 messages a second per bot, and sends every message', async () => {
    const before = callsOf('sendMessage').length;
    const campaign = await Promise.all(
      Array.from({ length: 45 }, (_, i) => send({ channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: String(7000 + i) }, text: `Скидка 10% до пятницы (${i})` })),
    );
    for (const { request_id } of campaign) expect(await settled(t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const at = callsOf('sendMessage').slice(before).map((c) => c.at);
    expect(at).toHaveLength(45);
    for (const start of at) expect(at.filter((x) => x >= start && x < start + 1000).length).toBeLessThanOrEqual(30);
  });

  it('says why a send failed, and sends again when Telegram is busy', async () => {
    const ivan = { id: 5555, is_bot: false, first_name: 'Ivan' };
    await telegram.deliver(TELEGRAM_TOKEN, update(6, { message_id: 12, chat: { id: 5555, type: 'private' }, from: ivan, text: 'Stop' }));
    telegram.block(5555);
    const blocked = await send({ channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: '5555' }, text: 'Still there?' });
    expect(await settled(t, blocked.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'chat_is_blocked' });

    const before = callsOf('sendMessage').length;
    telegram.failNext('sendMessage', 1, 429, 3);
    const busy = await send({ channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: '4242' }, text: 'One more thing' });
    // The retry waits as long as Telegram asked (3 s), not the first backoff (1 s).
    const refusedAt = await eventually(async () => (callsOf('sendMessage').length > before ? Date.now() : undefined));
    const due = await eventually(async () => {
      const { rows: [row] } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${busy.request_id}`.execute(t.gateway.database.db);
      return row?.send_after ?? undefined;
    });
    expect(due.getTime() - refusedAt).toBeGreaterThan(2_000);
    expect(await settled(t, busy.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('sendMessage').length - before).toBe(2);
    expect(await statusTrail(t, busy.request_id)).toEqual(['sent']);
  });

  it('switches the channel off when Telegram no longer takes its token, and a reinit with a new one brings it back', async () => {
    telegram.revoke(TELEGRAM_TOKEN);
    const refused = await send({ channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: '4242' }, text: 'Are you there?' });
    expect(await settled(t, refused.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'session_revoked' });
    const off = (await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0];
    expect(off).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    // Later sends are refused at once, without asking Telegram.
    const calls = telegram.calls.length;
    const later = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: '4242' }, text: 'Hello?' } });
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'disabled', reason: 'unauthorized' } });
    expect(telegram.calls.length).toBe(calls);

    telegram.addBot(NEW_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    const reinit = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { telegram_token: NEW_TOKEN } } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    expect(reinit.json().data[0]).toMatchObject({ status: 'active' });
    expect(telegram.webhookOf(NEW_TOKEN)?.url).toBe(`${base}/hooks/telegram/${channelId}`);
    const again = await send({ channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: '4242' }, text: 'Back again' });
    expect(await settled(t, again.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('sendMessage').at(-1)!.token).toBe(NEW_TOKEN);

    // Another bot in its place: the one before no longer posts here.
    telegram.addBot(OTHER_BOT_TOKEN, { id: 555000111, username: 'acme_support_bot', first_name: 'Acme Support' });
    const replaced = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { telegram_token: OTHER_BOT_TOKEN } } });
    expect(replaced.json().data[0]).toMatchObject({ status: 'active', username: 'acme_support_bot' });
    expect(telegram.webhookOf(NEW_TOKEN)).toBeUndefined();
    expect(telegram.webhookOf(OTHER_BOT_TOKEN)?.url).toBe(`${base}/hooks/telegram/${channelId}`);
  });

  it('lets the bot go when its channel is deleted: Telegram stops posting here, and a late update is not recorded', async () => {
    const hook = telegram.webhookOf(OTHER_BOT_TOKEN)!;
    expect((await t.call('DELETE', `/v2/channels/${channelId}`, { token })).statusCode).toBe(200);
    expect(callsOf('deleteWebhook').at(-1)!.params).toEqual({ drop_pending_updates: true });
    expect(telegram.webhookOf(OTHER_BOT_TOKEN)).toBeUndefined();
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const late = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secret! },
      body: JSON.stringify(update(9, { message_id: 20, chat: { id: 4242, type: 'private' }, from: anna, text: 'Hello?' })),
    });
    expect(late.status).toBe(503);
    expect(await stream.since()).toEqual([]);
  });
});
