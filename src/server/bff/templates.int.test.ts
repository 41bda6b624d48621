import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`business-API templates in the chat frame (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let wapi: string;
  let templateId: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    wapi = await activeChannel(t, channelClient(t, a.token), 'wapi');
    const created = await t.call('POST', `/v2/sandbox/channels/${wapi}/templates`, {
      token: a.token,
      body: { name: 'order_ready', language: 'en', category: 'UTILITY', components: [{ type: 'body', text: 'Order {{1}} is ready' }] },
    });
    expect(created.statusCode).toBe(201);
    templateId = created.json().data.id;
    await t.call('POST', `/v2/sandbox/templates/${templateId}/moderation`, { token: a.token, body: { status: 'APPROVED' } });
  });
  afterAll(() => t.close());

  it('lists the same templates as GET /v2/templates, for every chat session of the account', async () => {
    const v2 = (await t.call('GET', '/v2/templates', { token: a.token })).json().data;
    expect(v2).toHaveLength(1);
    for (const body of [{ user: { id: 'u' }, scope: 'global' }, { user: { id: 'u' }, scope: 'card', chats: [{ chat_type: 'whatsapp', chat_id: '79001112233' }] }]) {
      const token = await openFrame(t, a.token, 'chats', body as never);
      const res = await t.call('GET', '/bff/templates', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(v2);
      expect(res.json().data[0]).toMatchObject({ id: templateId, channel_id: wapi, status: 'APPROVED' });
      expect((await t.call('GET', `/bff/templates?channel_id=${wapi}`, { token })).json().data).toEqual(v2);
    }
  });

  it('sends a template from the frame; the history shows it with the words it filled in, and a message’s keyboard', async () => {
    const recipient = { chat_type: 'whatsapp', chat_id: '79001113344' };
    await t.call('POST', `/v2/sandbox/channels/${wapi}/inbound`, { token: a.token, body: { ...recipient, text: 'Ready yet?' } });
    const keyboard = { buttons: [{ text: 'Yes', payload: 'y' }, { text: 'No', payload: 'n' }] };
    expect((await t.call('POST', '/v2/messages', { token: a.token, body: { channel_id: wapi, recipient, text: 'Picked up?', keyboard } })).statusCode).toBe(201);
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'u' }, scope: 'global' });
    const sent = await t.call('POST', '/bff/messages', { token, body: { channel_id: wapi, recipient, template: { id: templateId, values: ['A-17'] } } });
    expect(sent.statusCode).toBe(201);
    const chatRef = (await t.call('GET', '/bff/chats', { token })).json().data.chats.find((c: { chat_id: string }) => c.chat_id === recipient.chat_id).chat_ref;
    const history = await t.call('GET', `/bff/chats/${chatRef}/messages`, { token });
    expect(history.statusCode, history.body).toBe(200);
    const messages = history.json().data.messages as { text: string | null; template: unknown; keyboard: unknown }[];
    expect(messages.map((m) => m.text ?? null)).toEqual(['Ready yet?', 'Picked up?', null]);
    expect(messages[1]!.keyboard).toEqual(keyboard);
    expect(messages[2]!.template).toEqual({ id: templateId, values: ['A-17'], text: 'Order A-17 is ready' });
  });

  it("refuses a channels session, and keeps accounts apart", async () => {
    const channels = await openFrame(t, a.token, 'channels', {});
    expect((await t.call('GET', '/bff/templates', { token: channels })).statusCode).toBe(403);
    const other = await openFrame(t, b.token, 'chats', { user: { id: 'u' }, scope: 'global' });
    expect((await t.call('GET', '/bff/templates', { token: other })).json().data).toEqual([]);
    const foreign = await t.call('GET', `/bff/templates?channel_id=${wapi}`, { token: other });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('CHANNEL_NOT_FOUND');
  });
});
