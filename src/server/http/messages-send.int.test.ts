import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_CONFLICT } from '../../contract/messages.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`sending messages through the sandbox (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;
  const channels: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, account.accountId);
    for (const transport of ['whatsapp', 'telegram', 'maxbot', 'instAPI', 'tgapi', 'wapi', 'viber']) channels[transport] = await activeChannel(t, api, transport);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  const send = (body: Record<string, unknown>) => t.call('POST', '/v2/messages', { token, body });
  const sendOk = async (body: Record<string, unknown>) => {
    const res = await send(body);
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as { request_id: string; chat_id: string | null };
  };
  const inbound = (channel: string, body: Record<string, unknown>) => t.call('POST', `/v2/sandbox/channels/${channel}/inbound`, { token, body });

  it('accepts a whatsapp text with 201 {request_id, chat_id}, then sent and delivered, then read when told', async () => {
    const res = await send({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, text: 'Hello' });
    expect(res.statusCode).toBe(201);
    const { request_id, chat_id, ...rest } = res.json().data;
    expect(request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat_id).toBe('79001112233');
    expect(rest).toEqual({});
    const message = await settled(t, request_id);
    expect(message.status).toBe('delivered');
    expect(await statusTrail(t, request_id)).toEqual(['sent', 'delivered']);

    const read = await t.call('POST', `/v2/sandbox/messages/${message.id}/status`, { token, body: { status: 'read' } });
    expect(read.json().data).toEqual({ message_id: message.id, status: 'read', reason: null, changed: true });
    const late = await t.call('POST', `/v2/sandbox/messages/${message.id}/status`, { token, body: { status: 'delivered' } });
    expect(late.json().data).toMatchObject({ status: 'read', changed: false });
    expect(await statusTrail(t, request_id)).toEqual(['sent', 'delivered', 'read']);
    const events = await stream.since();
    expect(events.find((e) => e.payload.status === 'read')?.payload).toEqual({ message_id: message.id, request_id, status: 'read', reason: null });
  });

  it('a whatsapp customer who writes by phone has their number as the chat id, which an answer reaches', async () => {
    const wrote = await inbound(channels.whatsapp!, { chat_type: 'whatsapp', phone: '79005550102', name: 'By phone', text: 'Hi' });
    expect(wrote.statusCode).toBe(201);
    expect(wrote.json().data.chat_id).toBe('79005550102');
    const answer = await sendOk({ channel_id: channels.whatsapp!, recipient: { chat_type: 'whatsapp', chat_id: '79005550102' }, text: 'Hello' });
    expect((await settled(t, answer.request_id)).status).toBe('delivered');
  });

  it('refuses text with an attachment in the interface’s words, and a message with no content', async () => {
    const both = await send({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, text: 'a', attachment: { url: 'https://x.test/a.png' } });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ error: 'VALIDATION_ERROR', description: CONTENT_CONFLICT });
    const none = await send({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' } });
    expect(none.json().data.fields).toEqual([{ field: 'text', message: 'one of text, attachment or template is required' }]);
    const template = await send({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, template: { id: crypto.randomUUID() } });
    expect(template.json().data.fields).toEqual([{ field: 'template', message: 'this transport has no templates' }]);
    expect(await stream.names()).toEqual([]);
  });

  it.each([
    [{ chat_type: 'whatsapp', chat_id: '+79001112233' }, 'recipient.chat_id'],
    [{ chat_type: 'telegram', chat_id: '5' }, 'recipient.chat_type'],
    [{ chat_type: 'whatsapp', chat_id: '79001112233', phone: '79001112233' }, 'recipient.phone'],
    [{ chat_type: 'whatsapp' }, 'recipient.chat_id'],
    [{ chat_type: 'fax', chat_id: '1' }, 'recipient.chat_type'],
  ])('refuses recipient %o with 400 naming %s', async (recipient, field) => {
    const res = await send({ channel_id: channels.whatsapp, recipient, text: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('refuses an unknown channel (404) and a channel that is not active (409)', async () => {
    const unknown = await send({ channel_id: crypto.randomUUID(), recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, text: 'x' });
    expect(unknown.json().error).toBe('CHANNEL_NOT_FOUND');
    const { channel_id: idle } = await api.create('whatsapp');
    const res = await send({ channel_id: idle, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, text: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'init', reason: 'qr' } });
  });

  it('fails a text over the transport limit with text_length_is_too_much', async () => {
    const ok = await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112234' }, text: 'я'.repeat(4096) });
    expect((await settled(t, ok.request_id)).status).toBe('delivered');
    const long = await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001112234' }, text: 'я'.repeat(4097) });
    expect(await settled(t, long.request_id)).toMatchObject({ status: 'failed', reason: 'text_length_is_too_much' });
    expect(await statusTrail(t, long.request_id)).toEqual(['failed:text_length_is_too_much']);
    const insta = await sendOk({ channel_id: channels.instAPI, recipient: { chat_type: 'instagram', chat_id: 'buyer' }, text: 'x'.repeat(1001) });
    expect(await settled(t, insta.request_id)).toMatchObject({ reason: 'text_length_is_too_much' });
  });

  it('bots and instagram may not write first; after the customer writes they may', async () => {
    const tg = await sendOk({ channel_id: channels.telegram, recipient: { chat_type: 'telegram', chat_id: '5001' }, text: 'hi' });
    expect(await settled(t, tg.request_id)).toMatchObject({ status: 'failed', reason: 'messages_not_text_first_from_telegram_bot' });
    const mx = await sendOk({ channel_id: channels.maxbot, recipient: { chat_type: 'max', chat_id: '6001' }, text: 'hi' });
    expect(await settled(t, mx.request_id)).toMatchObject({ status: 'failed', reason: 'contact_can_not_create' });
    const ig = await sendOk({ channel_id: channels.instAPI, recipient: { chat_type: 'instagram', chat_id: 'buyer2' }, text: 'hi' });
    expect(await settled(t, ig.request_id)).toMatchObject({ status: 'failed', reason: 'messages_not_text_first' });

    expect((await inbound(channels.telegram!, { chat_type: 'telegram', chat_id: '5001', name: 'Ann', text: 'hello bot' })).statusCode).toBe(201);
    const again = await sendOk({ channel_id: channels.telegram, recipient: { chat_type: 'telegram', chat_id: '5001' }, text: 'hi' });
    expect((await settled(t, again.request_id)).status).toBe('delivered');
  });

  it('a personal account writes first, by chat id or (telegram, max) by username, learning the chat id', async () => {
    const viber = await sendOk({ channel_id: channels.viber, recipient: { chat_type: 'viber', chat_id: '380501112233' }, text: 'hi' });
    expect((await settled(t, viber.request_id)).status).toBe('delivered');
    await stream.since();
    const byName = await sendOk({ channel_id: channels.tgapi, recipient: { chat_type: 'telegram', username: 'ann_smith', crm_contact_name: 'Ann' }, text: 'hi' });
    expect(byName.chat_id).toBeNull();
    const message = await settled(t, byName.request_id);
    expect(message.status).toBe('delivered');
    const added = (await stream.since()).find((e) => e.name === 'message.add')!;
    expect(added.payload).toMatchObject({
      message_id: message.id,
      channel_id: channels.tgapi,
      direction: 'outbound',
      text: 'hi',
      recipient: { chat_type: 'telegram', chat_id: expect.stringMatching(/^\d+$/), username: 'ann_smith', name: 'Ann' },
    });
    // The customer answers: same chat.
    const reply = await inbound(channels.tgapi!, { chat_type: 'telegram', username: 'ann_smith', text: 'hey' });
    expect(reply.json().data.chat_id).toBe((added.payload.recipient as { chat_id: string }).chat_id);
    expect((await stream.since()).find((e) => e.name === 'message.add')?.payload).toMatchObject({ direction: 'inbound', recipient: { username: 'ann_smith' } });
  });

  it('fails sends to customers who block the channel or do not exist', async () => {
    const customers = (body: unknown) => t.call('POST', `/v2/sandbox/channels/${channels.whatsapp}/customers`, { token, body });
    expect((await customers({ chat_type: 'whatsapp', chat_id: '79005550001', state: 'blocked' })).statusCode).toBe(200);
    await customers({ chat_type: 'whatsapp', chat_id: '79005550002', state: 'missing' });
    const blocked = await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79005550001' }, text: 'x' });
    const missing = await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79005550002' }, text: 'x' });
    expect(await settled(t, blocked.request_id)).toMatchObject({ status: 'failed', reason: 'chat_is_blocked' });
    expect(await settled(t, missing.request_id)).toMatchObject({ status: 'failed', reason: 'bad_contact' });

    await t.call('POST', `/v2/sandbox/channels/${channels.tgapi}/customers`, { token, body: { chat_type: 'telegram', username: 'ghost_user', state: 'missing' } });
    const ghost = await sendOk({ channel_id: channels.tgapi, recipient: { chat_type: 'telegram', username: 'ghost_user' }, text: 'x' });
    expect(await settled(t, ghost.request_id)).toMatchObject({ status: 'failed', reason: 'contact_can_not_create' });
  });

  it('business API: free text only within 24 hours of the customer’s last message', async () => {
    const wapi = channels.wapi!;
    const first = await sendOk({ channel_id: wapi, recipient: { chat_type: 'whatsapp', chat_id: '79006660001' }, text: 'hi' });
    expect(await settled(t, first.request_id)).toMatchObject({ status: 'failed', reason: 'over_24_hour_limit' });
    await inbound(wapi, { chat_type: 'whatsapp', chat_id: '79006660001', text: 'question' });
    const inWindow = await sendOk({ channel_id: wapi, recipient: { chat_type: 'whatsapp', chat_id: '79006660001' }, text: 'answer' });
    expect((await settled(t, inWindow.request_id)).status).toBe('delivered');
    clock.advance(24 * 60 * 60 * 1000);
    const late = await sendOk({ channel_id: wapi, recipient: { chat_type: 'whatsapp', chat_id: '79006660001' }, text: 'later' });
    expect(await settled(t, late.request_id)).toMatchObject({ status: 'failed', reason: 'over_24_hour_limit' });
  });

  it('instagram: answers only within 24 hours of the customer’s last message, and no template reopens the window', async () => {
    const insta = channels.instAPI!;
    const first = await sendOk({ channel_id: insta, recipient: { chat_type: 'instagram', chat_id: 'window.buyer' }, text: 'hi' });
    expect(await settled(t, first.request_id)).toMatchObject({ status: 'failed', reason: 'messages_not_text_first' });
    await inbound(insta, { chat_type: 'instagram', chat_id: 'window.buyer', text: 'question' });
    const inWindow = await sendOk({ channel_id: insta, recipient: { chat_type: 'instagram', chat_id: 'window.buyer' }, text: 'answer' });
    expect((await settled(t, inWindow.request_id)).status).toBe('delivered');
    clock.advance(24 * 60 * 60 * 1000);
    const late = await sendOk({ channel_id: insta, recipient: { chat_type: 'instagram', chat_id: 'window.buyer' }, text: 'later' });
    expect(await settled(t, late.request_id)).toMatchObject({ status: 'failed', reason: 'messages_not_text_first' });
  });

  it('counts unanswered inbound messages until an outbound one resets the counter', async () => {
    const unanswered = async () =>
      (await t.gateway.database.db.selectFrom('chats').select('unanswered').where('channel_id', '=', channels.whatsapp!).where('chat_id', '=', '79007770001').executeTakeFirstOrThrow())
        .unanswered;
    for (const text of ['one', 'two', 'three']) await inbound(channels.whatsapp!, { chat_type: 'whatsapp', chat_id: '79007770001', text });
    expect(await unanswered()).toBe(3);
    await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79007770001' }, text: 'note', reset_unanswered: false });
    expect(await unanswered()).toBe(3);
    await sendOk({ channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79007770001' }, text: 'answer' });
    expect(await unanswered()).toBe(0);
    await inbound(channels.whatsapp!, { chat_type: 'whatsapp', chat_id: '79007770001', text: 'four' });
    expect(await unanswered()).toBe(1);
    const phone = await t.call('POST', `/v2/sandbox/channels/${channels.whatsapp}/phone-send`, { token, body: { chat_type: 'whatsapp', chat_id: '79007770001', text: 'from the phone' } });
    expect(phone.statusCode).toBe(201);
    expect(await unanswered()).toBe(0);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload.direction as string);
    expect(added.sort()).toEqual(['inbound', 'inbound', 'inbound', 'inbound', 'outbound']);
  });

  it('drops keyboard buttons beyond the platform limit and says so in warnings', async () => {
    await inbound(channels.telegram!, { chat_type: 'telegram', chat_id: '5002', text: 'menu?' });
    const buttons = Array.from({ length: 14 }, (_, i) => [{ text: `Option ${i + 1}`, callback_data: `o${i + 1}` }]);
    const res = await send({ channel_id: channels.telegram, recipient: { chat_type: 'telegram', chat_id: '5002' }, text: 'Pick one', keyboard: { reply_markup: 'inline', buttons } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.warnings).toEqual([expect.stringContaining('12')]);
    const bad = await send({ channel_id: channels.telegram, recipient: { chat_type: 'telegram', chat_id: '5002' }, text: 'x', keyboard: { reply_markup: 'inline', buttons: [[{ text: 'a', callback_data: 'x'.repeat(65) }]] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields[0].field).toBe('keyboard.buttons.0.0.callback_data');
    const none = await send({ channel_id: channels.viber, recipient: { chat_type: 'viber', chat_id: '380501112233' }, text: 'x', keyboard: { buttons: [] } });
    expect(none.json().data.fields).toEqual([{ field: 'keyboard', message: expect.any(String) }]);
  });

  it('sends an approved business-API template outside the 24-hour window; one not approved is refused', async () => {
    const wapi = channels.wapi!;
    const created = await t.call('POST', `/v2/sandbox/channels/${wapi}/templates`, {
      token,
      body: { name: 'order_ready', language: 'en', category: 'UTILITY', components: [{ type: 'body', text: 'Order {{1}} is ready' }] },
    });
    expect(created.statusCode).toBe(201);
    const templateId = created.json().data.id as string;
    const body = { channel_id: wapi, recipient: { chat_type: 'whatsapp', chat_id: '79006660009' }, template: { id: templateId, values: ['A-17'] } };
    const pending = await send(body);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toBe('TEMPLATE_NOT_APPROVED');
    await t.call('POST', `/v2/sandbox/templates/${templateId}/moderation`, { token, body: { status: 'APPROVED' } });
    const wrongValues = await send({ ...body, template: { id: templateId, values: [] } });
    expect(wrongValues.statusCode).toBe(400);
    const ok = await sendOk(body);
    expect((await settled(t, ok.request_id)).status).toBe('delivered');
  });

  it('puts simultaneous first messages to one customer into one chat', async () => {
    const body = { channel_id: channels.whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79008880001' }, text: 'hi' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(body)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const chats = await t.gateway.database.db.selectFrom('chats').select('id').where('channel_id', '=', channels.whatsapp!).where('chat_id', '=', '79008880001').execute();
    expect(chats).toHaveLength(1);
  });
});
