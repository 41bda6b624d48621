import { createHmac, hkdfSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_updates';
const SECRET_KEY = 'k'.repeat(40);
const METRICS_TOKEN = 'metrics-token-of-the-maxbot-test-0123456';
/** The secret MAX is given for a channel, as the gateway derives it from its key. */
const secretOf = (channelId: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', SECRET_KEY, 'messaging-gateway', 'maxbot-webhook-secrets/v1', 32))).update(channelId).digest('base64url');

const BOT_ID = 10002;
const anna = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', name: 'Anna Kravets', username: 'anna_k', is_bot: false, last_activity_time: 1_795_000_000_000 };
/** The presser as MAX names them in a callback (no username). */
const annaPressing = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', username: null, is_bot: false, name: 'Anna Kravets', last_activity_time: 1_795_000_000_000 };
const oleg = { user_id: 4343, first_name: 'Oleg', last_name: '', username: null, is_bot: false, name: 'Oleg', last_activity_time: 1_795_000_000_000 };
const dialog = { chat_id: 7_001, chat_type: 'dialog', user_id: BOT_ID, post_id: null };
const GROUP = -72_000_555;
/** A customer's message as MAX posts it in `message_created` and, as it is now, in `message_edited`. */
const customerMessage = (mid: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  timestamp: 1_795_000_000_000,
  sender: anna,
  recipient: dialog,
  body: { mid, seq: 1, text: null, ...body },
  ...extra,
});
const created = (message: Record<string, unknown>) => ({ update_type: 'message_created', timestamp: 1_795_000_000_000, message });
const offerKeyboard = { buttons: [[{ type: 'callback', text: 'Да', payload: 'order:yes', intent: 'positive' }, { type: 'callback', text: 'Нет', payload: 'order:no' }]] };

describe(`live max bots: customers’ edits and button presses (${databaseKind()})`, () => {
  let max: MaxEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;
  let base: string;

  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(TOKEN, { user_id: BOT_ID, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    ({ t, base } = await startLiveGateway({ MAX_API_URL: max.url, SECRET_KEY, METRICS_TOKEN }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
    // Anna writes first (bots cannot), and the bot is in the group.
    expect(await max.deliver(TOKEN, created(customerMessage('mid.hello', { text: 'Здравствуйте' })))).toBe(200);
    max.wroteTo(GROUP);
  });
  afterAll(async () => {
    await t?.close();
    await max?.close();
  });

  const answers = () => max.calls.filter((c) => `${c.method} ${c.path}` === 'POST /answers');
  /** The answers to a press MAX was asked for, once there is one (presses are answered after the update's 200). */
  const answered = (callbackId: string) => eventually(async () => (answers().some((c) => c.query.callback_id === callbackId) ? answers().filter((c) => c.query.callback_id === callbackId) : undefined));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const rowsNumbered = async (messengerMessageId: string) =>
    (await sql<{ id: string; text: string | null; edited_at: Date | null; quoted_message_id: string | null }>`
      select id, text, edited_at, quoted_message_id from messages where channel_id = ${channelId} and messenger_message_id = ${messengerMessageId}`.execute(t.gateway.database.db)).rows;
  /** A message with the offer's keyboard sent through the API, and MAX's mid for it. */
  const sendOffer = async (recipient: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient, text: 'Подтвердить заказ?', keyboard: offerKeyboard } });
    expect(res.statusCode, res.body).toBe(201);
    const sent = await settled(t, (res.json().data as { request_id: string }).request_id, ['sent', 'failed']);
    expect(sent.status).toBe('sent');
    const { rows } = await sql<{ messenger_message_id: string }>`select messenger_message_id from messages where id = ${sent.id}`.execute(t.gateway.database.db);
    return { id: sent.id, mid: rows[0]!.messenger_message_id };
  };

  const file = (sig: string) => [{ type: 'file', payload: { token: 't', url: `https://fd.oneme.ru/getfile?sig=${sig}&expires=1&id=9` }, filename: 'offer.pdf', size: 10 }];
  const editedAt = (mid: string, body: Record<string, unknown>, timestamp: number) =>
    max.deliver(TOKEN, { update_type: 'message_edited', timestamp, message: customerMessage(mid, body) });

  it('asks MAX for edits and button presses besides new messages', () => {
    expect(max.subscriptionsOf(TOKEN)).toEqual([
      { url: `${base}/hooks/maxbot/${channelId}`, secret: secretOf(channelId), update_types: ['message_created', 'message_edited', 'message_callback'] },
    ]);
  });

  it('records a customer’s edit of their words as message.edit, with the old words, and marks the message edited', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await max.deliver(TOKEN, created(customerMessage('mid.ask', { text: 'Где мой заказ?' })))).toBe(200);
    const [added] = (await stream.since()).filter((e) => e.name === 'message.add');
    const messageId = (added!.payload as { message_id: string }).message_id;

    expect(await max.customerEdits(TOKEN, customerMessage('mid.ask', { text: 'Где мой заказ №42?' }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: messageId, crm_user_id: null, timestamp: expect.any(Number), text: 'Где мой заказ №42?', old_text: 'Где мой заказ?' }],
    ]);
    expect(await rowsNumbered('mid.ask')).toEqual([expect.objectContaining({ id: messageId, text: 'Где мой заказ №42?', edited_at: expect.any(Date) })]);

    // The same words again, an edit of a message never recorded (a sticker's), one without words: taken, nothing changes.
    expect(await max.customerEdits(TOKEN, customerMessage('mid.ask', { text: 'Где мой заказ №42?' }))).toBe(200);
    expect(await max.customerEdits(TOKEN, customerMessage('mid.never-seen', { text: 'Что это?' }))).toBe(200);
    expect(await max.customerEdits(TOKEN, customerMessage('mid.ask', { text: '' }))).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('changes the words of a message with a file (`<mid>:caption`) and leaves the file as it was, however MAX re-signs its address', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await max.deliver(TOKEN, created(customerMessage('mid.doc', { text: 'Договор', attachments: file('a') })))).toBe(200);
    await stream.since();
    expect(await max.customerEdits(TOKEN, customerMessage('mid.doc', { text: 'Договор, подписанный', attachments: file('b') }))).toBe(200);
    const [words] = await rowsNumbered('mid.doc:caption');
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: words!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Договор, подписанный', old_text: 'Договор' }],
    ]);
    expect(await rowsNumbered('mid.doc')).toEqual([expect.objectContaining({ text: null, edited_at: null })]);
  });

  it('leaves the words of a message with files empty when they are taken away, and fills them when given again', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await max.deliver(TOKEN, created(customerMessage('mid.doc2', { text: 'Договор', attachments: file('a') })))).toBe(200);
    await stream.since();
    const [words] = await rowsNumbered('mid.doc2:caption');

    expect(await max.customerEdits(TOKEN, customerMessage('mid.doc2', { text: '', attachments: file('b') }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: words!.id, crm_user_id: null, timestamp: expect.any(Number), text: '', old_text: 'Договор' }],
    ]);
    expect(await max.customerEdits(TOKEN, customerMessage('mid.doc2', { attachments: file('c') }))).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect(await max.customerEdits(TOKEN, customerMessage('mid.doc2', { text: 'Договор, подписанный', attachments: file('d') }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: words!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Договор, подписанный', old_text: '' }],
    ]);
    expect(await rowsNumbered('mid.doc2')).toEqual([expect.objectContaining({ text: null, edited_at: null })]);
  });

  it('makes words given to a message of files alone arrive as its `<mid>:caption`, once; a text message given a file keeps its words where they are', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await max.deliver(TOKEN, created(customerMessage('mid.files', { attachments: file('a') })))).toBe(200);
    await stream.since();
    expect(await max.customerEdits(TOKEN, customerMessage('mid.files', { text: 'Вот договор', attachments: file('b') }))).toBe(200);
    const [added] = await rowsNumbered('mid.files:caption');
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.add', expect.objectContaining({ message_id: added!.id, direction: 'inbound', text: 'Вот договор' })],
    ]);
    // Again (MAX sent it twice), then changed: one message, edited.
    expect(await max.customerEdits(TOKEN, customerMessage('mid.files', { text: 'Вот договор', attachments: file('c') }))).toBe(200);
    expect(await max.customerEdits(TOKEN, customerMessage('mid.files', { text: 'Вот договор №7', attachments: file('d') }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: added!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Вот договор №7', old_text: 'Вот договор' }],
    ]);
    expect(await rowsNumbered('mid.files:caption')).toHaveLength(1);

    // A message of words that an edit shows with a file: its words change where they are, and do not arrive again.
    expect(await max.deliver(TOKEN, created(customerMessage('mid.words', { text: 'Пришлю файл' })))).toBe(200);
    await stream.since();
    const [text] = await rowsNumbered('mid.words');
    expect(await max.customerEdits(TOKEN, customerMessage('mid.words', { text: 'Вот файл', attachments: file('e') }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: text!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Вот файл', old_text: 'Пришлю файл' }],
    ]);
    expect(await rowsNumbered('mid.words:caption')).toEqual([]);
  });

  it('records nothing twice of a message MAX posts again after its words were numbered `<mid>:text`, as before captions were', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    const update = created(customerMessage('mid.old', { text: 'Счёт', attachments: file('a') }));
    expect(await max.deliver(TOKEN, update)).toBe(200);
    await stream.since();
    await sql`update messages set messenger_message_id = 'mid.old:text' where channel_id = ${channelId} and messenger_message_id = 'mid.old:caption'`.execute(t.gateway.database.db);
    expect(await max.deliver(TOKEN, update)).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect([(await rowsNumbered('mid.old')).length, (await rowsNumbered('mid.old:text')).length, (await rowsNumbered('mid.old:caption')).length]).toEqual([1, 1, 0]);
  });

  it('ignores an edit MAX sends again after a newer one (it retries an update whose answer failed)', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await max.deliver(TOKEN, created(customerMessage('mid.order', { text: 'Два пирога' })))).toBe(200);
    await stream.since();
    const [row] = await rowsNumbered('mid.order');
    const t0 = 1_795_000_100_000;
    expect(await editedAt('mid.order', { text: 'Три пирога' }, t0 + 1_000)).toBe(200);
    expect(await editedAt('mid.order', { text: 'Четыре пирога' }, t0 + 2_000)).toBe(200);
    expect((await stream.since()).map((e) => (e.payload as { text: string }).text)).toEqual(['Три пирога', 'Четыре пирога']);
    // The first edit again, after the second: older than the last recorded, it changes nothing.
    expect(await editedAt('mid.order', { text: 'Три пирога' }, t0 + 1_000)).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect(await rowsNumbered('mid.order')).toEqual([expect.objectContaining({ id: row!.id, text: 'Четыре пирога', edited_at: new Date(t0 + 2_000) })]);
    // A newer one still changes it.
    expect(await editedAt('mid.order', { text: 'Пять пирогов' }, t0 + 3_000)).toBe(200);
    expect((await stream.since()).map((e) => (e.payload as { text: string }).text)).toEqual(['Пять пирогов']);
  });

  it('asks MAX to send an edit again while the channel is not stored yet', async () => {
    const unborn = '0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a';
    const early = await fetch(`${base}/hooks/maxbot/${unborn}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-max-bot-api-secret': secretOf(unborn) },
      body: JSON.stringify({ update_type: 'message_edited', timestamp: 1, message: customerMessage('mid.ask', { text: 'x' }) }),
    });
    expect(early.status).toBe(503);
  });

  it('records a press as the button’s text from the presser, answering the message, answers it, and records and answers it once', async () => {
    const offer = await sendOffer({ chat_type: 'max', chat_id: '4242' });
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();

    const { status, callbackId, update } = await max.pressButton(TOKEN, offer.mid, 'order:no', annaPressing);
    expect(status).toBe(200);
    // From the presser: a dialog's press is in Anna's own chat, named by her.
    expect((await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload)).toEqual([
      expect.objectContaining({ direction: 'inbound', text: 'Нет', quoted_message_id: offer.id, recipient: expect.objectContaining({ chat_type: 'max', chat_id: '4242', name: 'Anna Kravets' }) }),
    ]);
    expect(await answered(callbackId)).toEqual([expect.objectContaining({ token: TOKEN, query: { callback_id: callbackId }, body: { notification: 'Нет' } })]);

    // Posted again (MAX did not get the 200): recorded once, and not answered again (MAX would refuse a second answer).
    expect(await max.deliver(TOKEN, update)).toBe(200);
    // Long enough for a second answer's turn in the chat's pace (600 ms after the first) to come.
    await pause(1_200);
    expect(await stream.since()).toEqual([]);
    expect(answers().filter((c) => c.query.callback_id === callbackId)).toHaveLength(1);
    expect(await rowsNumbered(`cb:${callbackId}`)).toHaveLength(1);

    // A payload no button of the message has (the keyboard changed since): its words are the payload; the customer sees a mark.
    const later = await max.pressButton(TOKEN, offer.mid, 'order:later', annaPressing);
    expect(later.status).toBe(200);
    expect((await stream.since()).map((e) => e.payload)).toEqual([expect.objectContaining({ text: 'order:later', quoted_message_id: offer.id })]);
    expect(await answered(later.callbackId)).toEqual([expect.objectContaining({ body: { notification: '✓' } })]);
  });

  it('answers a press it does not record: on a message deleted since, whose chat MAX no longer says', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const { status, callbackId, update } = await max.pressButton(TOKEN, 'mid.deleted-since', 'order:yes', annaPressing);
    expect(update.message).toBeNull();
    expect(status).toBe(200);
    expect(await answered(callbackId)).toEqual([expect.objectContaining({ query: { callback_id: callbackId }, body: { notification: '✓' } })]);
    expect(await stream.since()).toEqual([]);
  });

  it('records a press in a group in the group’s chat, from whoever pressed', async () => {
    const offer = await sendOffer({ chat_type: 'maxgroup', chat_id: String(GROUP) });
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const { status, callbackId } = await max.pressButton(TOKEN, offer.mid, 'order:yes', oleg);
    expect(status).toBe(200);
    // The interface's message names its chat (`recipient`: here the group), and has no field for who in a group
    // wrote it: Oleg's press is the group's message, whoever pressed. A dialog's press names the presser (above).
    const [added] = (await stream.since()).map((e) => e.payload as { recipient: Record<string, unknown> });
    expect(added).toEqual(
      expect.objectContaining({ direction: 'inbound', text: 'Да', quoted_message_id: offer.id, recipient: expect.objectContaining({ chat_type: 'maxgroup', chat_id: String(GROUP), username: null, name: null }) }),
    );
    expect(JSON.stringify(added)).not.toContain('Oleg');
    expect(await answered(callbackId)).toEqual([expect.objectContaining({ body: { notification: 'Да' } })]);
  });

  it('keeps a press whose answer MAX refuses: the update is still taken, the answer was asked for once', async () => {
    const offer = await sendOffer({ chat_type: 'max', chat_id: '4242' });
    max.failNext('POST /answers', 1, 500);
    const { status, callbackId } = await max.pressButton(TOKEN, offer.mid, 'order:yes', annaPressing);
    expect(status).toBe(200);
    expect(await rowsNumbered(`cb:${callbackId}`)).toEqual([expect.objectContaining({ text: 'Да', quoted_message_id: offer.id })]);
    expect(await answered(callbackId)).toHaveLength(1);
    // Not tried again, and counted.
    await pause(300);
    expect(answers().filter((c) => c.query.callback_id === callbackId)).toHaveLength(1);
    const metrics = await t.call('GET', '/metrics', { token: METRICS_TOKEN });
    expect(metrics.body).toMatch(/^gateway_messenger_answer_failures_total\{transport="maxbot",reason="refused"\} [1-9]/m);
  });

  it('answers presses apart from sends: however many a customer makes, a send in the same chat is not held up', async () => {
    const offer = await sendOffer({ chat_type: 'max', chat_id: '4242' });
    const started = Date.now();
    for (let i = 0; i < 30; i++) expect((await max.pressButton(TOKEN, offer.mid, 'order:yes', annaPressing)).status).toBe(200);
    // The presses are taken as fast as MAX posts them: nothing waits for an answer's turn.
    expect(Date.now() - started).toBeLessThan(5_000);
    await pause(700);
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'Заказ подтверждён' } });
    const asked = Date.now();
    const sent = await settled(t, (res.json().data as { request_id: string }).request_id, ['sent', 'failed']);
    expect(sent.status).toBe('sent');
    const posted = max.calls.findLast((c) => `${c.method} ${c.path}` === 'POST /messages' && c.body.text === 'Заказ подтверждён');
    expect(posted!.at - asked).toBeLessThan(1_000);
  });

  it('drops edits and presses while the channel is switched off, answered 200 so that MAX keeps the subscription', async () => {
    const offer = await sendOffer({ chat_type: 'max', chat_id: '4242' });
    max.revoke(TOKEN);
    const refused = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'max', chat_id: '4242' }, text: 'Вы здесь?' } });
    expect(await settled(t, (refused.json().data as { request_id: string }).request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'session_revoked' });
    expect((await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0]).toMatchObject({ status: 'disabled' });
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const answeredBefore = answers().length;

    expect(await max.customerEdits(TOKEN, customerMessage('mid.ask', { text: 'Пока вас не было' }))).toBe(200);
    const { status, callbackId } = await max.pressButton(TOKEN, offer.mid, 'order:yes', annaPressing);
    expect(status).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect((await rowsNumbered('mid.ask'))[0]).toMatchObject({ text: 'Где мой заказ №42?' });
    expect(await rowsNumbered(`cb:${callbackId}`)).toEqual([]);
    // A press of a channel switched off is not answered either (the answer would start after the 200).
    await pause(300);
    expect(answers()).toHaveLength(answeredBefore);
  });
});
