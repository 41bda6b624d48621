import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`editing and deleting messages (${databaseKind()})`, () => {
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
    for (const transport of ['whatsapp', 'maxbot', 'viber', 'tgapi']) channels[transport] = await activeChannel(t, api, transport);
    await t.call('POST', `/v2/sandbox/channels/${channels.maxbot}/inbound`, { token, body: { chat_type: 'max', chat_id: '42', text: 'hi' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  /** Sends and waits for delivery; answers the message id. */
  async function delivered(transport: string, body: Record<string, unknown>): Promise<string> {
    const recipient = { whatsapp: { chat_type: 'whatsapp', chat_id: '79001112233' }, viber: { chat_type: 'viber', chat_id: '380501112233' }, maxbot: { chat_type: 'max', chat_id: '42' }, tgapi: { chat_type: 'telegram', chat_id: '777' } }[transport];
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channels[transport], recipient, ...body } });
    if (res.statusCode !== 201) throw new Error(res.body);
    const message = await settled(t, res.json().data.request_id);
    await stream.since();
    return message.id;
  }
  const patch = (id: string, body: unknown) => t.call('PATCH', `/v2/messages/${id}`, { token, body });
  const remove = (id: string) => t.call('DELETE', `/v2/messages/${id}`, { token });

  it('edits a delivered whatsapp text within 15 minutes: message.edit with old and new text', async () => {
    const id = await delivered('whatsapp', { text: 'Price: 100' });
    clock.advance(14 * 60 * 1000);
    const res = await patch(id, { text: 'Price: 90', crm_user_id: 'agent-7' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ message_id: id, chat_id: '79001112233' });
    expect(await stream.since()).toEqual([
      { name: 'message.edit', payload: { message_id: id, crm_user_id: 'agent-7', timestamp: clock.now().getTime(), text: 'Price: 90', old_text: 'Price: 100' } },
    ]);
  });

  it('refuses an edit after the 15-minute window: 400 MESSAGES_EDITING_TIME_EXPIRED', async () => {
    const id = await delivered('whatsapp', { text: 'late' });
    clock.advance(15 * 60 * 1000 + 1);
    const res = await patch(id, { text: 'too late' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'MESSAGES_EDITING_TIME_EXPIRED' });
    expect(await stream.names()).toEqual([]);
  });

  it('whatsapp edits text only; viber cannot edit or delete; a max-bot message with a keyboard cannot be edited', async () => {
    const wa = await delivered('whatsapp', { text: 'x' });
    const attachment = await patch(wa, { attachment: { url: 'https://files.test/a.png' } });
    expect(attachment.statusCode).toBe(400);
    expect(attachment.json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING');

    const vb = await delivered('viber', { text: 'x' });
    expect((await patch(vb, { text: 'y' })).json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_EDITING');
    const del = await remove(vb);
    expect(del.statusCode).toBe(400);
    expect(del.json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_DELETION');

    const keyboard = { buttons: [[{ type: 'callback', text: 'Yes', payload: 'yes' }]] };
    const mb = await delivered('maxbot', { text: 'Confirm?', keyboard });
    expect((await patch(mb, { text: 'Confirm now?' })).json().error).toBe('MESSAGES_CONTAIN_BUTTONS');
    const plain = await delivered('maxbot', { text: 'no keyboard' });
    expect((await patch(plain, { text: 'edited' })).statusCode).toBe(200);
    expect(await stream.names()).toEqual(['message.edit']);
  });

  it('whatsapp does not turn an attachment into text, and an edit over the transport\'s text limit is refused at once', async () => {
    const picture = await delivered('whatsapp', { attachment: { url: 'https://files.test/a.png' } });
    const toText = await patch(picture, { text: 'now a text' });
    expect(toText.statusCode).toBe(400);
    expect(toText.json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING');

    const text = await delivered('tgapi', { text: 'short' });
    const long = await patch(text, { text: 'я'.repeat(4097) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'text', message: 'must not be longer than 4096 characters on tgapi' }] } });
    // Counted in characters, as the send's limit is: 4096 of them, each two UTF-16 units, is at the limit.
    expect((await patch(text, { text: '😀'.repeat(4096) })).statusCode).toBe(200);
    expect(await stream.names()).toEqual(['message.edit']);
  });

  it('refuses to edit or delete through a channel that is no longer active: 409 CHANNEL_WRONG_STATUS with its status', async () => {
    const wa = await activeChannel(t, api, 'whatsapp');
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: wa, recipient: { chat_type: 'whatsapp', chat_id: '79001112244' }, text: 'before logout' } });
    const id = (await settled(t, res.json().data.request_id)).id;
    await api.sandbox(wa, 'logout');
    await stream.since();
    for (const answer of [await patch(id, { text: 'after logout' }), await remove(id)]) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'disabled', reason: 'unauthorized' } });
    }
    expect(await stream.names()).toEqual([]);
    const row = await t.gateway.database.db.selectFrom('messages').select(['text', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ text: 'before logout', deleted_at: null });
  });

  it('edits an attachment where the transport allows it, reporting old and new attachment', async () => {
    const id = await delivered('tgapi', { attachment: { url: 'https://files.test/a.pdf', name: 'a.pdf' } });
    const res = await patch(id, { attachment: { url: 'https://files.test/b.pdf', name: 'b.pdf' } });
    expect(res.statusCode).toBe(200);
    const [edit] = await stream.since();
    expect(edit!.payload).toMatchObject({ attachment: { url: 'https://files.test/b.pdf', name: 'b.pdf' }, old_attachment: { url: 'https://files.test/a.pdf', name: 'a.pdf' } });
  });

  it('deletes a message: message.delete, kept with a deleted mark', async () => {
    const id = await delivered('whatsapp', { text: 'oops' });
    const res = await remove(id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ message_id: id, chat_id: '79001112233' });
    expect(await stream.since()).toEqual([{ name: 'message.delete', payload: { message_id: id, crm_user_id: null, timestamp: clock.now().getTime() } }]);
    const row = await t.gateway.database.db.selectFrom('messages').select(['text', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ text: 'oops', deleted_at: clock.now() });
    expect((await remove(id)).json().error).toBe('MESSAGE_NOT_FOUND');
    expect((await patch(id, { text: 'x' })).json().error).toBe('MESSAGE_NOT_FOUND');
  });

  it('answers 404 for unknown and foreign messages, 400 for inbound ones and a failed send', async () => {
    expect((await patch(crypto.randomUUID(), { text: 'x' })).json().error).toBe('MESSAGE_NOT_FOUND');
    const id = await delivered('whatsapp', { text: 'mine' });
    const other = await t.newAccount('Other');
    expect((await t.call('PATCH', `/v2/messages/${id}`, { token: other.token, body: { text: 'x' } })).json().error).toBe('MESSAGE_NOT_FOUND');
    expect((await t.call('DELETE', `/v2/messages/${id}`, { token: other.token })).json().error).toBe('MESSAGE_NOT_FOUND');

    const inbound = await t.call('POST', `/v2/sandbox/channels/${channels.whatsapp}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: '79001112233', text: 'from customer' } });
    const res = await patch(inbound.json().data.message_id, { text: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'message_id', message: 'only outbound messages can be changed' }]);
    expect((await patch(id, { text: 'a', attachment: { url: 'https://files.test/a.png' } })).statusCode).toBe(400);
  });
});
