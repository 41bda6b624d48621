import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { eventually } from '../testing/eventually.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Account } from '../testing/v3-account.ts';

interface StoredRow {
  id: string;
  status: string;
  keyboard: unknown;
  crm_user_id: string | null;
  reset_unanswered: boolean;
  quoted_message_id: string | null;
  attachment: unknown;
}

// POST /v3/message, PATCH and DELETE /v3/message/:messageId as the v3 facts describe them (§2, §3).
describe(`v3 messages (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let apiKey: string;
  let sidecarKey: string;
  let channels: Record<string, string>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    ({ apiKey, sidecarKey, channels } = await v3Account(t, ['whatsapp', 'telegram', 'maxbot', 'tgapi']));
    await t.call('POST', `/v2/sandbox/channels/${channels.maxbot}/inbound`, { token: apiKey, body: { chat_type: 'max', chat_id: '42', text: 'hi' } });
    await t.call('POST', `/v2/sandbox/channels/${channels.telegram}/inbound`, { token: apiKey, body: { chat_type: 'telegram', chat_id: '4242', text: 'hi' } });
  });
  afterAll(() => t.close());

  const send = (body: Record<string, unknown>, token = apiKey) => t.call('POST', '/v3/message', { token, body });
  const whatsapp = (extra: Record<string, unknown> = {}) => ({ channelId: channels.whatsapp, chatType: 'whatsapp', chatId: '79001112233', ...extra });
  const stored = async (id: string) =>
    (await sql<StoredRow>`select id, status, keyboard, crm_user_id, reset_unanswered, quoted_message_id, attachment from messages where id = ${id}`.execute(t.gateway.database.db)).rows[0]!;
  const delivered = (id: string) => eventually(async () => ((await stored(id)).status === 'delivered' ? true : undefined));

  it('answers 201 {messageId, chatId}; the message id is the one the /v2 face reports the message by', async () => {
    const res = await send(whatsapp({ text: 'Hello' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['chatId', 'messageId']);
    expect(body.chatId).toBe('79001112233');
    await delivered(body.messageId);
    const events = await sql<{ payload: { message_id: string; status: string } }>`select payload from events where name = 'message.status_update' and payload->>'message_id' = ${body.messageId}`.execute(t.gateway.database.db);
    expect(events.rows.map((r) => r.payload.status)).toEqual(expect.arrayContaining(['sent', 'delivered']));
  });

  it('refuses a crmMessageId repeated within 60 seconds with REPEATED_CRM_MESSAGE_ID, and sends it again after', async () => {
    const first = await send(whatsapp({ text: 'Once', crmMessageId: 'crm-1' }));
    expect(first.statusCode).toBe(201);
    clock.advance(59_000);
    const again = await send(whatsapp({ text: 'Once', crmMessageId: 'crm-1' }));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ status: 400, error: 'REPEATED_CRM_MESSAGE_ID', data: { crmMessageId: 'crm-1' } });
    expect(again.json().requestId).toBe(again.headers['x-request-id']);
    clock.advance(1_001);
    expect((await send(whatsapp({ text: 'Once', crmMessageId: 'crm-1' }))).statusCode).toBe(201);
  });

  it('a refused send does not use up its crmMessageId', async () => {
    expect((await send(whatsapp({ crmMessageId: 'crm-2' }))).json().error).toBe('MESSAGE_NOTHING_TO_SEND');
    expect((await send(whatsapp({ text: 'fixed', crmMessageId: 'crm-2' }))).statusCode).toBe(201);
  });

  it('answers the §2.7 codes where the gateway\'s rules meet them', async () => {
    const code = async (body: Record<string, unknown>) => {
      const res = await send(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json();
    };
    expect(await code({ chatType: 'whatsapp', chatId: '79001112233', text: 'x' })).toMatchObject({ error: 'INVALID_MESSAGE_DATA', data: { fields: ['channelId'] } });
    expect((await code(whatsapp({ text: 'x', contentUri: 'https://example.com/a.png' }))).error).toBe('MESSAGE_ONLY_TEXT_OR_CONTENT');
    expect((await code(whatsapp({ text: '' }))).error).toBe('MESSAGES_TEXT_CAN_NOT_BE_BLANK');
    expect(await code(whatsapp({ chatType: 'vk', text: 'x' }))).toMatchObject({
      error: 'WRONG_TRANSPORT',
      description: "You can't send message to vk chat from whatsapp transport",
      data: { channelId: channels.whatsapp, transport: 'whatsapp', chatType: 'vk' },
    });
    expect((await code(whatsapp({ text: 'x'.repeat(10_001) }))).error).toBe('MESSAGE_TEXT_TOO_LONG');
    expect((await code({ channelId: channels.telegram, chatType: 'telegram', chatId: '4242', text: 'x'.repeat(4_097) })).error).toBe('MESSAGES_TOO_LONG_TELEGRAM');
    expect(await code(whatsapp({ text: 'x', refMessageId: '00000000-0000-4000-8000-000000000000' }))).toMatchObject({ error: 'REFERENCE_MESSAGE_NOT_FOUND' });
    expect((await code(whatsapp({ channelId: '00000000-0000-4000-8000-000000000000', text: 'x' }))).error).toBe('CHANNEL_NOT_FOUND');
    expect(await code(whatsapp({ chatId: '12', text: 'x' }))).toMatchObject({ error: 'INVALID_MESSAGE_DATA', data: { fields: ['chatId'] } });
  });

  it('quotes by refMessageId, attaches contentUri, keeps the counter with clearUnanswered false, records crmUserId', async () => {
    const quoted = (await send(whatsapp({ text: 'first' }))).json().messageId;
    const res = await send(whatsapp({ contentUri: 'https://example.com/a.png', refMessageId: quoted, clearUnanswered: false, crmUserId: 'agent-1' }));
    expect(res.statusCode, res.body).toBe(201);
    const row = await stored(res.json().messageId);
    expect(row).toMatchObject({ quoted_message_id: quoted, reset_unanswered: false, crm_user_id: 'agent-1', attachment: { url: 'https://example.com/a.png' } });
  });

  it('a sidecar key sends, but its crmUserId is ignored, and it may not edit or delete', async () => {
    const res = await send(whatsapp({ text: 'from sidecar', crmUserId: 'agent-1' }), sidecarKey);
    expect(res.statusCode).toBe(201);
    expect((await stored(res.json().messageId)).crm_user_id).toBeNull();
    const edit = await t.call('PATCH', `/v3/message/${res.json().messageId}`, { token: sidecarKey, body: { text: 'no' } });
    expect(edit.statusCode).toBe(403);
    expect(edit.body).toBe('{"error":"FORBIDDEN"}');
  });

  it('sends telegram by phone and answers the chat id the messenger gave', async () => {
    const res = await send({ channelId: channels.tgapi, chatType: 'telegram', phone: '79005550101', text: 'by phone' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().chatId).toMatch(/^\d+$/);
    expect(res.json().chatId).not.toBe('79005550101');
  });

  it('takes buttonsObject in the Telegram and MAX layouts (rows of buttons)', async () => {
    const tg = await send({
      channelId: channels.telegram,
      chatType: 'telegram',
      chatId: '4242',
      text: 'Pick',
      buttonsObject: { replyMarkup: 'inline', buttons: [[{ text: 'Yes', callbackData: 'y' }, { text: 'Site', url: 'https://example.com' }]] },
    });
    expect(tg.statusCode, tg.body).toBe(201);
    expect((await stored(tg.json().messageId)).keyboard).toEqual({ reply_markup: 'inline', buttons: [[{ text: 'Yes', callback_data: 'y' }, { text: 'Site', url: 'https://example.com' }]] });
    const max = await send({
      channelId: channels.maxbot,
      chatType: 'max',
      chatId: '42',
      text: 'Pick',
      buttonsObject: { chatType: 'max', buttons: [[{ type: 'callback', text: 'Yes', payload: 'y', intent: 'positive' }]] },
    });
    expect(max.statusCode, max.body).toBe(201);
    expect((await stored(max.json().messageId)).keyboard).toEqual({ buttons: [[{ type: 'callback', text: 'Yes', payload: 'y', intent: 'positive' }]] });
    const bad = await send({ channelId: channels.telegram, chatType: 'telegram', chatId: '4242', text: 'Pick', buttonsObject: { buttons: [[{ text: 'Yes', callbackData: 'y'.repeat(65) }]] } });
    expect(bad.json()).toMatchObject({ error: 'INVALID_MESSAGE_DATA', data: { fields: ['buttonsObject.buttons.0.0.callbackData'] } });
  });

  it('edits and deletes by messageId with 200 {messageId, chatId}; an unknown id is MESSAGES_NOT_FOUND', async () => {
    const id = (await send({ channelId: channels.maxbot, chatType: 'max', chatId: '42', text: 'Price: 100' })).json().messageId;
    await delivered(id);
    const edit = await t.call('PATCH', `/v3/message/${id}/`, { token: apiKey, body: { text: 'Price: 90', crmUserId: 'agent-1' } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toEqual({ messageId: id, chatId: '42' });
    const both = await t.call('PATCH', `/v3/message/${id}`, { token: apiKey, body: { text: 'a', contentUri: 'https://example.com/a.png' } });
    expect(both.json().error).toBe('MESSAGE_ONLY_TEXT_OR_CONTENT');
    const removed = await t.call('DELETE', `/v3/message/${id}`, { token: apiKey });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ messageId: id, chatId: '42' });
    const again = await t.call('DELETE', `/v3/message/${id}`, { token: apiKey });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('MESSAGES_NOT_FOUND');
  });
});
