import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** What the sandbox phone does beyond writing: a customer's reply, a customer's deletion, and the chat as the phone shows it. */
describe(`the sandbox phone's calls (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let stream: ReturnType<typeof eventStream>;
  const channels: Record<string, string> = {};
  const anna = { chat_type: 'whatsapp', chat_id: '79161234567' };

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    stream = eventStream(t.gateway.database, account.accountId);
    const api = channelClient(t, token);
    for (const transport of ['whatsapp', 'viber']) channels[transport] = await activeChannel(t, api, transport);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  const inbound = async (channel: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channel}/inbound`, { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as { message_id: string }).message_id;
  };
  const remove = (messageId: string) => t.call('POST', `/v2/sandbox/messages/${messageId}/delete`, { token });
  const screen = async (channel: string, chat: { chat_type: string; chat_id: string }) => {
    const res = await t.call('GET', `/v2/sandbox/channels/${channel}/chats/${chat.chat_type}/${chat.chat_id}/messages`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { message_id: string; direction: string; text: string | null; status: string; deleted: boolean; quoted_message: { message_id: string } | null }[];
  };

  it('shows the chat as the customer sees it: both sides, oldest first, with the business’s answer and its status', async () => {
    const question = await inbound(channels.whatsapp!, { ...anna, text: 'Is my order on its way?' });
    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channels.whatsapp, recipient: anna, text: 'Yes, it ships today.' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const answer = await settled(t, sent.json().data.request_id);
    expect(await screen(channels.whatsapp!, anna)).toEqual([
      expect.objectContaining({ message_id: question, direction: 'inbound', text: 'Is my order on its way?' }),
      expect.objectContaining({ message_id: answer.id, direction: 'outbound', text: 'Yes, it ships today.', status: 'delivered' }),
    ]);
    expect(await screen(channels.whatsapp!, { chat_type: 'whatsapp', chat_id: '79990000000' })).toEqual([]);
  });

  it('names the customer who wrote as the sender of an inbound message.add', async () => {
    const id = await inbound(channels.viber!, { chat_type: 'viber', chat_id: '79161230000', name: 'Oleg', text: 'Hello?' });
    expect(await stream.since()).toEqual([
      { name: 'message.add', payload: expect.objectContaining({ message_id: id, sender: { chat_type: 'viber', chat_id: '79161230000', name: 'Oleg', username: null, phone: null } }) },
    ]);
  });

  it('sends a customer’s reply quoting the message it answers', async () => {
    const first = await inbound(channels.whatsapp!, { ...anna, text: 'Which colour?' });
    await stream.since();
    const reply = await inbound(channels.whatsapp!, { ...anna, text: 'Blue, please.', reply_to: first });
    expect(await stream.since()).toEqual([{ name: 'message.add', payload: expect.objectContaining({ message_id: reply, quoted_message_id: first }) }]);
    expect((await screen(channels.whatsapp!, anna)).at(-1)).toMatchObject({ message_id: reply, quoted_message: { message_id: first } });
    const unknown = await t.call('POST', `/v2/sandbox/channels/${channels.whatsapp}/inbound`, { token, body: { ...anna, text: 'x', reply_to: '0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a' } });
    expect(unknown.statusCode).toBe(404);
  });

  it('deletes what the customer wrote: kept with a deleted mark, message.delete without a CRM user, once', async () => {
    const id = await inbound(channels.whatsapp!, { ...anna, text: 'Sent by mistake' });
    await stream.since();
    const res = await remove(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ message_id: id, chat_id: anna.chat_id });
    expect(await stream.since()).toEqual([{ name: 'message.delete', payload: { message_id: id, crm_user_id: null, timestamp: clock.now().getTime() } }]);
    expect((await screen(channels.whatsapp!, anna)).find((m) => m.message_id === id)).toMatchObject({ text: 'Sent by mistake', deleted: true });
    // Deleted already: as gone as an unknown message.
    expect((await remove(id)).statusCode).toBe(404);
    expect(await stream.since()).toEqual([]);
  });

  it('refuses a deletion the customer could not make: another transport’s, the business’s own message', async () => {
    const viber = await inbound(channels.viber!, { chat_type: 'viber', chat_id: '380501112233', text: 'hi' });
    expect((await remove(viber)).json()).toMatchObject({ error: 'CHANNEL_INVALID_TRANSPORT_FOR_DELETION' });
    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channels.whatsapp, recipient: anna, text: 'ours' } });
    const outbound = await settled(t, sent.json().data.request_id);
    await stream.since();
    expect([(await remove(outbound.id)).statusCode, (await remove(outbound.id)).json().error]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await stream.since()).toEqual([]);
  });

  it('serves the phone page in the sandbox', async () => {
    const page = await t.gateway.app.inject({ method: 'GET', url: '/sandbox/phone/' });
    expect([page.statusCode, page.body]).toEqual([200, expect.stringContaining('<h1>Sandbox phone</h1>')]);
    // It holds the account's token: only its own scripts run, and nobody frames it.
    for (const policy of [page.headers['content-security-policy'], (await t.gateway.app.inject({ method: 'GET', url: '/sandbox/phone/index.html' })).headers['content-security-policy']]) {
      expect(String(policy).split('; ')).toEqual(expect.arrayContaining(["script-src 'self'", "default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]));
    }
    expect((await t.gateway.app.inject({ method: 'GET', url: '/sandbox/phone?customer=1' })).headers.location).toBe('/sandbox/phone/?customer=1');
  });
});
