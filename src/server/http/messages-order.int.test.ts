import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientSendError, type MessagingDriver, type OutboundMessage } from '../core/messages/ports.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, messageByRequest, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** A messenger that records every send, and fails chosen texts a number of times with a network error. */
function recordingDriver(failures: Map<string, number>) {
  const calls: OutboundMessage[] = [];
  const driver: MessagingDriver = {
    async send(m) {
      calls.push(m);
      const left = failures.get(m.text ?? '') ?? 0;
      if (left > 0) {
        failures.set(m.text ?? '', left - 1);
        throw new TransientSendError('connection reset');
      }
      return { kind: 'sent', messengerMessageId: `mm-${m.requestId}`, chatId: m.chatId ?? 'resolved', delivered: false };
    },
    async edit() {},
    async remove() {},
  };
  return { driver, calls };
}

describe(`send order and retries (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;
  let channel: string;
  const failures = new Map<string, number>([['A-2', 2]]);
  const { driver, calls } = recordingDriver(failures);

  beforeAll(async () => {
    t = await startTestGateway({ messagingDriver: driver });
    const account = await t.newAccount();
    token = account.token;
    channel = await activeChannel(t, channelClient(t, token), 'whatsapp');
  });
  afterAll(() => t.close());

  it('sends one chat’s messages in the order accepted, holding them back while one waits for a retry', async () => {
    const chats = { A: '79001000001', B: '79001000002', C: '79001000003' };
    const accepted: { chat: string; text: string; requestId: string }[] = [];
    for (let i = 1; i <= 8; i++) {
      for (const [chat, chatId] of Object.entries(chats)) {
        const text = `${chat}-${i}`;
        const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channel, recipient: { chat_type: 'whatsapp', chat_id: chatId }, text } });
        expect(res.statusCode).toBe(201);
        accepted.push({ chat, text, requestId: res.json().data.request_id });
      }
    }
    await eventually(async () => {
      const statuses = await Promise.all(accepted.map((a) => messageByRequest(t, a.requestId)));
      return statuses.every((m) => m?.status === 'sent') ? true : undefined;
    }, 30_000);

    for (const chat of Object.keys(chats)) {
      const expected = accepted.filter((a) => a.chat === chat).map((a) => a.text);
      const sentOrder = calls.filter((c) => c.text?.startsWith(`${chat}-`)).map((c) => c.text);
      // Retries repeat a message in place; nothing of the chat overtakes it.
      const withoutRepeats = sentOrder.filter((text, i) => text !== sentOrder[i - 1]);
      expect(withoutRepeats).toEqual(expected);
    }
    const retried = accepted.find((a) => a.text === 'A-2')!;
    expect(calls.filter((c) => c.requestId === retried.requestId)).toHaveLength(3);
    // The same request id on every attempt, and one `sent`, not three.
    expect(await statusTrail(t, retried.requestId)).toEqual(['sent']);
  }, 40_000);
});
