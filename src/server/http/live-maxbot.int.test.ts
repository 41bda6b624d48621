import { createHmac, hkdfSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_shop';
const NEW_TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_new1';
const OTHER_BOT_TOKEN = 'Q2xkZ3Vmb3JkIHN1cHBvcnQgYm90IHRva2Vu';
const SECRET_KEY = 'k'.repeat(40);
/** The secret MAX is given for a channel, as the gateway derives it from its key. */
const secretOf = (channelId: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', SECRET_KEY, 'messaging-gateway', 'maxbot-webhook-secrets/v1', 32))).update(channelId).digest('base64url');

const BOT_ID = 10002;
const anna = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', name: 'Anna Kravets', username: 'anna_k', is_bot: false, last_activity_time: 1_795_000_000_000 };
const dialog = { chat_id: 7_001, chat_type: 'dialog', user_id: BOT_ID, post_id: null };
/** A `message_created` update as MAX posts it. */
const created = (mid: string, message: Record<string, unknown>) => ({
  update_type: 'message_created',
  timestamp: 1_795_000_000_000,
  message: { timestamp: 1_795_000_000_000, sender: anna, recipient: dialog, ...message, body: { mid, seq: 1, ...(message.body as object) } },
});

describe(`live max bots (${databaseKind()})`, () => {
  let max: MaxEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;
  let base: string;

  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(TOKEN, { user_id: BOT_ID, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    ({ t, base } = await startLiveGateway({ MAX_API_URL: max.url, SECRET_KEY }));
    ({ token, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
    await max?.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { request_id: string };
  };
  const callsOf = (route: string) => max.calls.filter((c) => `${c.method} ${c.path}` === route);
  const messageIdOf = async (messengerMessageId: string) => {
    const { rows } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id = ${messengerMessageId}`.execute(t.gateway.database.db);
    return rows[0]!.id;
  };

  it('connects a bot by its token: MAX says whose it is and learns where to post its new messages', async () => {
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
    const channel = (await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0];
    expect(channel).toMatchObject({ status: 'active', username: 'acme_shop_bot', name: 'Acme Shop', messenger_id: String(BOT_ID) });
    expect(callsOf('GET /me')).toHaveLength(1);
    expect(max.subscriptionsOf(TOKEN)).toEqual([{ url: `${base}/hooks/maxbot/${channelId}`, secret: secretOf(channelId), update_types: ['message_created', 'message_edited', 'message_callback'] }]);
    expect(max.calls.every((c) => c.token === TOKEN && !JSON.stringify(c.query).includes(TOKEN))).toBe(true);
  });

  it('keeps one subscription of the bot to this gateway: a second channel of the same bot takes its updates, and a reinit takes them back', async () => {
    const subscribe = (url: string) =>
      fetch(`${max.url}/subscriptions`, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ url, update_types: ['message_created'] }) });
    // The bot owner's own webhook, elsewhere, is none of the gateway's business.
    const owners = 'https://owner.example/max-hook';
    await subscribe(owners);
    const second = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: TOKEN } } });
    expect(second.statusCode, second.body).toBe(201);
    const secondId = second.json().data[0].channel_id as string;
    // MAX adds subscriptions: without the first channel's removed, each update would be recorded in both.
    expect(max.subscriptionsOf(TOKEN).map((s) => s.url)).toEqual([owners, `${base}/hooks/maxbot/${secondId}`]);
    expect(callsOf('DELETE /subscriptions').at(-1)).toMatchObject({ token: TOKEN, query: { url: `${base}/hooks/maxbot/${channelId}` } });

    const back = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { access_token: TOKEN } } });
    expect(back.statusCode, back.body).toBe(200);
    expect(max.subscriptionsOf(TOKEN).map((s) => s.url)).toEqual([owners, `${base}/hooks/maxbot/${channelId}`]);
    await fetch(`${max.url}/subscriptions?url=${encodeURIComponent(owners)}`, { method: 'DELETE', headers: { authorization: TOKEN } });
    expect((await t.call('DELETE', `/v2/channels/${secondId}`, { token })).statusCode).toBe(200);
    await eventually(async () => (callsOf('DELETE /subscriptions').some((c) => c.query.url === `${base}/hooks/maxbot/${secondId}`) ? true : undefined));
    expect(max.subscriptionsOf(TOKEN).map((s) => s.url)).toEqual([`${base}/hooks/maxbot/${channelId}`]);
  });

  it('refuses a token MAX does not know, and offers maxbot in the connect frame', async () => {
    const refused = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: 'x'.repeat(32) } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'credentials.access_token', message: 'was not accepted by MAX' }] } });
    const malformed = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: 'short token' } } });
    expect(malformed.json().data.fields[0]).toMatchObject({ field: 'credentials.access_token' });
    const frame = await openFrame(t, token, 'channels', {});
    const offered = (await t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
    expect(offered.filter((x) => x.creatable).map((x) => x.transport).sort()).toEqual(['maxbot', 'telegram']);
  });

  it('records what customers write in a dialog and in a group, each update once, and only with the channel’s secret', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const hello = created('mid.0000000000000000000000000000a001', { body: { text: 'Здравствуйте! Где мой заказ?' } });
    expect(await max.deliver(TOKEN, hello)).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add');
    expect(added).toHaveLength(1);
    expect(added[0]!.payload).toMatchObject({
      channel_id: channelId,
      direction: 'inbound',
      text: 'Здравствуйте! Где мой заказ?',
      recipient: { chat_type: 'max', chat_id: '4242', username: 'anna_k', name: 'Anna Kravets' },
    });

    // Sent again (MAX did not get the answer): taken, and the message stays one.
    expect(await max.deliver(TOKEN, hello)).toBe(200);
    expect(await stream.since()).toEqual([]);

    // Another secret, or none: refused before anything is read.
    expect(await max.deliver(TOKEN, created('mid.forged', { body: { text: 'forged' } }), 'x'.repeat(43))).toBe(401);
    expect(await max.deliver(TOKEN, created('mid.forged', { body: { text: 'forged' } }), null)).toBe(401);
    // A sticker, another bot, a press without its presser, something that is not an update: taken and dropped, not a 500 MAX repeats.
    const sub = max.subscriptionsOf(TOKEN)[0]!;
    const post = (body: unknown) => fetch(sub.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-max-bot-api-secret': sub.secret! }, body: JSON.stringify(body) });
    expect(await max.deliver(TOKEN, created('mid.sticker', { body: { text: null, attachments: [{ type: 'sticker', payload: { code: 's1', url: 'https://i.oneme.ru/s' }, width: 128, height: 128 }] } }))).toBe(200);
    expect(await max.deliver(TOKEN, created('mid.bot', { sender: { user_id: 1, first_name: 'Other bot', name: 'Other bot', username: null, is_bot: true, last_activity_time: 1_795_000_000_000 }, body: { text: 'beep' } }))).toBe(200);
    expect((await post({ update_type: 'message_callback', timestamp: 1, callback: { callback_id: 'c', payload: 'p' } })).status).toBe(200);
    expect((await post(['not', 'an', 'update'])).status).toBe(200);
    expect((await post({ update_type: 'message_created', message: { body: { text: 'no mid' }, sender: anna, recipient: dialog } })).status).toBe(200);
    expect(await stream.since()).toEqual([]);
    // A channel not stored yet (its subscription is made just before): MAX is asked to send it again later.
    const unborn = '0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a';
    const early = await fetch(`${base}/hooks/maxbot/${unborn}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-max-bot-api-secret': secretOf(unborn) },
      body: JSON.stringify(created('mid.early', { body: { text: 'early' } })),
    });
    expect(early.status).toBe(503);

    // A group the bot is in is a maxgroup chat, named by MAX's chat id.
    const group = { chat_id: -72_000_555, chat_type: 'chat', user_id: null, post_id: null };
    expect(await max.deliver(TOKEN, created('mid.group1', { recipient: group, body: { text: 'Hi all' } }))).toBe(200);
    expect((await stream.since()).find((e) => e.name === 'message.add')!.payload).toMatchObject({ recipient: { chat_type: 'maxgroup', chat_id: '-72000555' }, text: 'Hi all' });

    // A reply quotes the message it answers.
    const reply = created('mid.reply1', { body: { text: 'Это срочно' }, link: { type: 'reply', message: { mid: 'mid.0000000000000000000000000000a001', seq: 1, text: 'Здравствуйте! Где мой заказ?' } } });
    expect(await max.deliver(TOKEN, reply)).toBe(200);
    expect((await stream.since()).find((e) => e.name === 'message.add')!.payload).toMatchObject({
      text: 'Это срочно',
      quoted_message_id: await messageIdOf('mid.0000000000000000000000000000a001'),
    });
  });

  it('hands on a customer’s files by MAX’s own addresses (they hold no token), each a message, the words after them', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const receipt = created('mid.receipt', {
      body: {
        text: 'Мой чек и договор',
        attachments: [
          { type: 'image', payload: { photo_id: 1, token: 't1', url: 'https://i.oneme.ru/i?r=receipt' } },
          { type: 'file', payload: { token: 't2', url: 'https://fd.oneme.ru/getfile?sig=abc&expires=1&id=2' }, filename: 'offer.pdf', size: 2048 },
        ],
      },
    });
    expect(await max.deliver(TOKEN, receipt)).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
    expect(added).toMatchObject([
      { attachment: { url: 'https://i.oneme.ru/i?r=receipt' } },
      { attachment: { url: 'https://fd.oneme.ru/getfile?sig=abc&expires=1&id=2', name: 'offer.pdf', mimetype: 'application/pdf', size: 2048 } },
      { text: 'Мой чек и договор' },
    ]);
    // Sent again: none of the three is recorded twice.
    expect(await max.deliver(TOKEN, receipt)).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('sends with the keyboard and the quote as MAX takes them, and deletes there; a message with buttons is not edited, one without is', async () => {
    const { request_id } = await send({
      channel_id: channelId,
      recipient: { chat_type: 'max', chat_id: '4242' },
      text: 'Ваш заказ в пути.',
      keyboard: { buttons: [[{ type: 'link', text: 'Отследить', url: 'https://track.example.com/42' }, { type: 'callback', text: 'Спасибо', payload: 'thanks', intent: 'positive' }]] },
      quoted_message_id: await messageIdOf('mid.0000000000000000000000000000a001'),
    });
    const message = await settled(t, request_id, ['sent', 'failed']);
    expect(message.status).toBe('sent');
    expect(await statusTrail(t, request_id)).toEqual(['sent']);
    const sent = callsOf('POST /messages').at(-1)!;
    expect(sent.query).toEqual({ user_id: '4242' });
    expect(sent.body).toEqual({
      text: 'Ваш заказ в пути.',
      attachments: [
        {
          type: 'inline_keyboard',
          payload: { buttons: [[{ type: 'link', text: 'Отследить', url: 'https://track.example.com/42' }, { type: 'callback', text: 'Спасибо', payload: 'thanks' }]] },
        },
      ],
      link: { type: 'reply', mid: 'mid.0000000000000000000000000000a001' },
    });
    const edited = await t.call('PATCH', `/v2/messages/${message.id}`, { token, body: { text: 'Другой текст' } });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error).toBe('MESSAGES_CONTAIN_BUTTONS');
    const removed = await t.call('DELETE', `/v2/messages/${message.id}`, { token });
    expect(removed.statusCode, removed.body).toBe(200);
    const { rows } = await sql<{ mid: string }>`select messenger_message_id as mid from messages where id = ${message.id}`.execute(t.gateway.database.db);
    expect(callsOf('DELETE /messages').at(-1)!.query).toEqual({ message_id: rows[0]!.mid });

    const plain = await send({ channel_id: channelId, recipient: { chat_type: 'maxgroup', chat_id: '-72000555' }, text: 'Доставка завтра' });
    const plainMessage = await settled(t, plain.request_id, ['sent', 'failed']);
    expect(callsOf('POST /messages').at(-1)!.query).toEqual({ chat_id: '-72000555' });
    const fixed = await t.call('PATCH', `/v2/messages/${plainMessage.id}`, { token, body: { text: 'Доставка послезавтра' } });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(callsOf('PUT /messages').at(-1)).toMatchObject({ query: { message_id: expect.stringMatching(/^mid\./) }, body: { text: 'Доставка послезавтра' } });
  });

  it('uploads a file before sending it, and sends again while MAX is still processing the upload', async () => {
    const pdf = max.hostFile('offer.pdf', Buffer.from('%PDF-1.7 the offer'), 'application/pdf');
    max.notReadyFor(1);
    const before = callsOf('POST /messages').length;
    const { request_id } = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, attachment: { url: pdf, name: 'offer.pdf', mimetype: 'application/pdf' } });
    expect(await settled(t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('POST /uploads').at(-1)!.query).toEqual({ type: 'file' });
    const upload = max.uploads.at(-1)!;
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body).toContain('name="data"; filename="offer.pdf"');
    expect(upload.body).toContain('%PDF-1.7 the offer');
    const tries = callsOf('POST /messages').slice(before);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.body).toEqual({ attachments: [{ type: 'file', payload: { token: expect.stringMatching(/^file-token-/) } }] });

    const photo = max.hostFile('receipt.jpg', Buffer.from('JPEG bytes'), 'image/jpeg');
    const picture = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, attachment: { url: photo } });
    expect(await settled(t, picture.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('POST /uploads').at(-1)!.query).toEqual({ type: 'image' });
    expect(callsOf('POST /messages').at(-1)!.body).toEqual({ attachments: [{ type: 'image', payload: { photos: expect.any(Object) } }] });

    // A file that is not there: the send fails as content MAX could not be given.
    const missing = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, attachment: { url: `${max.url}/files/gone.pdf` } });
    expect(await settled(t, missing.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'can_not_get_content' });
  });

  it('sends a file with its words from the chat frame as one MAX message, and draws a customer’s file with words as one', async () => {
    const frame = await openFrame(t, token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const pdf = max.hostFile('contract.pdf', Buffer.from('%PDF-1.7 the contract'), 'application/pdf');
    const before = callsOf('POST /messages').length;
    const res = await t.call('POST', '/bff/messages', {
      token: frame,
      body: { channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, attachment: { url: pdf, name: 'contract.pdf', mimetype: 'application/pdf' }, text: 'Договор во вложении' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.caption_request_id).toBeUndefined();
    expect(await settled(t, res.json().data.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    // One message at MAX: the words in `text`, the file in `attachments`.
    expect(callsOf('POST /messages').slice(before).map((c) => c.body)).toEqual([
      { text: 'Договор во вложении', attachments: [{ type: 'file', payload: { token: expect.stringMatching(/^file-token-/) } }] },
    ]);

    // A customer's file with words: the words are its caption (`<mid>:caption`), which the frame's history names.
    const signed = created('mid.signed', { body: { text: 'Подписала', attachments: [{ type: 'file', payload: { token: 't3', url: 'https://fd.oneme.ru/getfile?sig=def&id=3' }, filename: 'signed.pdf', size: 4096 }] } });
    expect(await max.deliver(TOKEN, signed)).toBe(200);
    const chats = (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[];
    const ref = chats.find((c) => c.chat_id === '4242')!.chat_ref;
    const shown = (await t.call('GET', `/bff/chats/${ref}/messages`, { token: frame })).json().data.messages as { message_id: string; text: string | null; caption_of?: string }[];
    const [file, words] = shown.slice(-2);
    expect(file).toMatchObject({ text: null, message_id: await messageIdOf('mid.signed') });
    expect(words).toMatchObject({ text: 'Подписала', caption_of: file!.message_id });
  });

  it('says why a send failed, and sends again when MAX is busy', async () => {
    const ivan = { user_id: 5555, first_name: 'Ivan', name: 'Ivan', username: null, is_bot: false, last_activity_time: 1_795_000_000_000 };
    await max.deliver(TOKEN, created('mid.ivan', { sender: ivan, body: { text: 'Stop' } }));
    max.block(5555);
    const blocked = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '5555' }, text: 'Still there?' });
    expect(await settled(t, blocked.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'chat_is_blocked' });
    const stranger = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '777' }, text: 'Hello first' });
    expect(await settled(t, stranger.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'contact_can_not_create' });
    const long = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'я'.repeat(4050) });
    expect(await settled(t, long.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'text_length_is_too_much' });

    const before = callsOf('POST /messages').length;
    max.failNext('POST /messages', 1, 429, 3);
    const busy = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'One more thing' });
    // The retry waits as long as MAX asked (3 s), not the first backoff (1 s).
    const refusedAt = await eventually(async () => (callsOf('POST /messages').length > before ? Date.now() : undefined));
    const due = await eventually(async () => {
      const { rows: [row] } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${busy.request_id}`.execute(t.gateway.database.db);
      return row?.send_after ?? undefined;
    });
    expect(due.getTime() - refusedAt).toBeGreaterThan(2_000);
    expect(await settled(t, busy.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('POST /messages').length - before).toBe(2);
    expect(await statusTrail(t, busy.request_id)).toEqual(['sent']);
  });

  it('switches the channel off when MAX no longer takes its token; a reinit brings it back, and another bot takes the old one’s place', async () => {
    max.revoke(TOKEN);
    const refused = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'Are you there?' });
    expect(await settled(t, refused.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'session_revoked' });
    expect((await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    const calls = max.calls.length;
    const later = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'Hello?' } });
    expect(later.statusCode).toBe(409);
    expect(max.calls.length).toBe(calls);

    // Updates for a channel switched off are answered 200 and dropped: MAX would give up a bot whose hook fails for hours.
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await max.deliver(TOKEN, created('mid.while-off', { body: { text: 'Anyone?' } }))).toBe(200);
    expect(await stream.since()).toEqual([]);
    const { rows: kept } = await sql<{ n: number }>`select count(*)::int as n from messages where messenger_message_id = 'mid.while-off'`.execute(t.gateway.database.db);
    expect(kept[0]!.n).toBe(0);

    max.addBot(NEW_TOKEN, { user_id: BOT_ID, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    const reinit = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { access_token: NEW_TOKEN } } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    expect(reinit.json().data[0]).toMatchObject({ status: 'active' });
    expect(max.subscriptionsOf(NEW_TOKEN).map((s) => s.url)).toEqual([`${base}/hooks/maxbot/${channelId}`]);
    const again = await send({ channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'Back again' });
    expect(await settled(t, again.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(callsOf('POST /messages').at(-1)!.token).toBe(NEW_TOKEN);

    max.addBot(OTHER_BOT_TOKEN, { user_id: 20003, first_name: 'Acme Support', username: 'acme_support_bot' });
    const replaced = await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: { access_token: OTHER_BOT_TOKEN } } });
    expect(replaced.json().data[0]).toMatchObject({ status: 'active', username: 'acme_support_bot' });
    expect(max.subscriptionsOf(NEW_TOKEN)).toEqual([]);
    expect(callsOf('DELETE /subscriptions').at(-1)).toMatchObject({ token: NEW_TOKEN, query: { url: `${base}/hooks/maxbot/${channelId}` } });
    expect(max.subscriptionsOf(OTHER_BOT_TOKEN).map((s) => s.url)).toEqual([`${base}/hooks/maxbot/${channelId}`]);
  });

  it('lets the bot go when its channel is deleted: its subscription is removed, and a late update is not recorded', async () => {
    const sub = max.subscriptionsOf(OTHER_BOT_TOKEN)[0]!;
    expect((await t.call('DELETE', `/v2/channels/${channelId}`, { token })).statusCode).toBe(200);
    await eventually(async () => (max.subscriptionsOf(OTHER_BOT_TOKEN).length === 0 ? true : undefined));
    expect(callsOf('DELETE /subscriptions').at(-1)).toMatchObject({ token: OTHER_BOT_TOKEN, query: { url: sub.url } });
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const late = await fetch(sub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-max-bot-api-secret': sub.secret! },
      body: JSON.stringify(created('mid.late', { body: { text: 'Hello?' } })),
    });
    expect(late.status).toBe(503);
    expect(await stream.since()).toEqual([]);
  });
});
