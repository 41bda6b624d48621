import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientSendError, type MessagingDriver } from '../core/messages/ports.ts';
import { MAX_SEND_ATTEMPTS, retryDelayMs } from '../core/messages/send-message.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, messageByRequest, settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`a send the network keeps failing (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let tries = 0;
  const unreachable: MessagingDriver = {
    async send() {
      tries++;
      throw new TransientSendError('connection reset');
    },
    async edit() {},
    async remove() {},
  };
  let t: TestGateway;
  let token: string;
  let channel: string;

  beforeAll(async () => {
    t = await startTestGateway({ clock, messagingDriver: unreachable });
    token = (await t.newAccount()).token;
    channel = await activeChannel(t, channelClient(t, token), 'whatsapp');
  });
  afterAll(() => t.close());

  it('is tried again after growing delays, holding its chat, and ends failed with network_error after the last try', async () => {
    const send = (text: string) =>
      t.call('POST', '/v2/messages', { token, body: { channel_id: channel, recipient: { chat_type: 'whatsapp', chat_id: '79005550001' }, text } });
    const first = (await send('first')).json().data.request_id as string;
    const second = (await send('second')).json().data.request_id as string;

    const backInQueue = async () => {
      const { send_after, send_lease_until } = await t.gateway.database.db
        .selectFrom('messages')
        .select(['send_after', 'send_lease_until'])
        .where('request_id', '=', first)
        .executeTakeFirstOrThrow();
      return send_after !== null && send_lease_until === null ? true : undefined;
    };
    const claimable = () => t.gateway.store.sends.claim({ limit: 10, leaseSeconds: 30, now: clock.now() });
    for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
      await eventually(async () => (tries === attempt ? backInQueue() : undefined));
      // A moment before the delay ends nothing is due: not the failed head, nor the chat's next message.
      clock.advance(retryDelayMs(attempt) - 1);
      expect(await claimable()).toEqual([]);
      clock.advance(1);
      t.gateway.wakeSends();
    }
    const failed = await settled(t, first, ['failed']);
    expect([failed.status, failed.reason]).toEqual(['failed', 'network_error']);
    expect(await statusTrail(t, first)).toEqual(['failed:network_error']);
    // Only now does the chat's next message leave.
    await eventually(async () => (tries === MAX_SEND_ATTEMPTS + 1 ? true : undefined));
    expect((await messageByRequest(t, second))?.status).toBe('accepted');
  }, 60_000);
});
