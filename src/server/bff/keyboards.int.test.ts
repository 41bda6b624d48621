import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** The chat frame's keyboard builder sends through POST /bff/messages: the keyboard goes through as the API's would. */
describe(`keyboards sent from the chat frame (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;
  let telegram: string;
  let recipient: { chat_type: string; chat_id: string };

  beforeAll(async () => {
    t = await startTestGateway();
    const a = await t.newAccount('A');
    telegram = await activeChannel(t, channelClient(t, a.token), 'telegram');
    const inbound = await t.call('POST', `/v2/sandbox/channels/${telegram}/inbound`, {
      token: a.token,
      body: { chat_type: 'telegram', username: 'olga', name: 'Olga', text: 'Where is my order?' },
    });
    expect(inbound.statusCode, inbound.body).toBe(201);
    recipient = { chat_type: 'telegram', chat_id: inbound.json().data.chat_id };
    token = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  const send = (keyboard: unknown, text = 'Your order') => t.call('POST', '/bff/messages', { token, body: { channel_id: telegram, recipient, text, keyboard } });

  it('sends an inline keyboard with a link and a callback, which the history then shows', async () => {
    // 32 Cyrillic letters: 64 bytes, the most a callback carries.
    const keyboard = {
      reply_markup: 'inline',
      buttons: [[{ text: 'Track', url: 'https://shop.example/track/1042' }], [{ text: 'Перезвоните мне', callback_data: 'я'.repeat(32) }]],
    };
    const sent = await send(keyboard);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.warnings ?? []).toEqual([]);
    const chatRef = (await t.call('GET', '/bff/chats', { token })).json().data.chats[0].chat_ref;
    const history = (await t.call('GET', `/bff/chats/${chatRef}/messages`, { token })).json().data.messages as { text: string; keyboard: unknown }[];
    expect(history.find((m) => m.text === 'Your order')?.keyboard).toEqual(keyboard);
  });

  it('refuses a callback of 65 bytes, naming the field', async () => {
    const refused = await send({ buttons: [[{ text: 'Call me', callback_data: `${'я'.repeat(32)}a` }]] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('VALIDATION_ERROR');
    expect(refused.json().data.fields).toEqual([{ field: 'keyboard.buttons.0.0.callback_data', message: 'must be 1 to 64 bytes (UTF-8)' }]);
  });

  it('answers the warnings of what it dropped', async () => {
    const buttons = Array.from({ length: 13 }, (_, i) => [{ text: `B${i}`, callback_data: `b${i}` }]);
    const sent = await send({ buttons });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.warnings).toEqual(['keyboard.buttons: 1 button beyond the first 12 were dropped']);
  });
});
