import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { TransientSendError, type OutboundMessage } from '../../core/messages/ports.ts';
import { ManualTimers } from '../../testing/manual-timers.ts';
import { SendAcks } from './acks.ts';
import { ownFileSends } from './media.ts';
import { whatsappMessageId, whatsappMessaging } from './messaging.ts';
import { SEND_TURN_HOLD_MS, SEND_TURN_WAIT_MS, SENDS_IN_FLIGHT, SendSlots } from './send-slots.ts';
import type { LiveSockets } from './session.ts';
import type { WaSocket } from './wa-socket.ts';

const CHANNEL = 'channel-1';

/** A linked socket that records what was written to it; WhatsApp's acks come when the test gives them. */
function writingSocket() {
  const written: string[] = [];
  const socket = { sendMessage: async (_jid: string, _content: unknown, options?: { messageId?: string }) => void written.push(options!.messageId!) };
  return { written, socket: socket as unknown as WaSocket };
}

const outbound = (requestId: string, chatId: string): OutboundMessage =>
  ({ requestId, channelId: CHANNEL, transport: 'whatsapp', chatType: 'whatsapp', chatId, username: null, phone: null, text: `to ${chatId}`, attachment: null, keyboard: null, quotedMessengerId: null, sealedCredentials: null }) as OutboundMessage;

const settle = () => new Promise((r) => setImmediate(r));

describe('WhatsApp sends after a reconnect', () => {
  const setup = () => {
    const timers = new ManualTimers();
    const acks = new SendAcks(timers);
    const { written, socket } = writingSocket();
    const sockets: LiveSockets = new Map([[CHANNEL, socket]]);
    const chats = Array.from({ length: 32 }, (_, i) => `1555000${String(i).padStart(4, '0')}`);
    const known = new Set(chats.map((chat) => `${CHANNEL}:${chat}`));
    const driver = whatsappMessaging(sockets, known, { filesAgent: new Agent(), allowLoopbackFiles: false, ownSends: ownFileSends() }, acks, 10_000, new SendSlots(timers));
    return { timers, acks, written, driver, chats };
  };

  it('writes a few of a channel’s waiting sends at a time, each next one once WhatsApp acknowledged one before it', async () => {
    const { acks, written, driver, chats } = setup();
    // The send queue hands every chat's unacknowledged send over at once (one batch of claims).
    const outcomes = chats.map((chat, i) => driver.send(outbound(`request-${i}`, chat)));
    await settle();
    expect(written).toHaveLength(SENDS_IN_FLIGHT);
    for (let acked = 0; acked < chats.length; acked++) {
      acks.ack({ id: written[acked]! });
      await settle();
      expect(written.length - (acked + 1)).toBeLessThanOrEqual(SENDS_IN_FLIGHT);
    }
    const results = await Promise.all(outcomes);
    expect(results.map((r) => r.kind)).toEqual(chats.map(() => 'sent'));
    // Each written once, under its own id.
    expect(new Set(written).size).toBe(chats.length);
    expect(written).toContain(whatsappMessageId('request-31'));
  });

  it('gives a send that found no turn within its wait back to the queue, to go again under the same id', async () => {
    const { timers, written, driver, chats } = setup();
    const first = chats.slice(0, SENDS_IN_FLIGHT).map((chat, i) => driver.send(outbound(`request-${i}`, chat)));
    const late = driver.send(outbound('request-late', chats.at(-1)!));
    await settle();
    timers.advance(SEND_TURN_WAIT_MS);
    await expect(late).rejects.toBeInstanceOf(TransientSendError);
    expect(written).not.toContain(whatsappMessageId('request-late'));
    // The ones written wait for their acks, which never came: they go back too.
    timers.advance(10_000);
    for (const outcome of first) await expect(outcome).rejects.toBeInstanceOf(TransientSendError);
  });

  it('takes its turn back from a send the library never answers, so hung calls never hold every turn of the channel', async () => {
    const timers = new ManualTimers();
    const written: string[] = [];
    // A connection that died under the library: its calls never come back.
    const hung = { sendMessage: (_jid: string, _content: unknown, options?: { messageId?: string }) => new Promise(() => void written.push(options!.messageId!)) };
    const sockets: LiveSockets = new Map([[CHANNEL, hung as unknown as WaSocket]]);
    const chats = Array.from({ length: SENDS_IN_FLIGHT + 1 }, (_, i) => `1555111${String(i).padStart(4, '0')}`);
    const known = new Set(chats.map((chat) => `${CHANNEL}:${chat}`));
    const driver = whatsappMessaging(sockets, known, { filesAgent: new Agent(), allowLoopbackFiles: false, ownSends: ownFileSends() }, new SendAcks(timers), 10_000, new SendSlots(timers));
    const stuck = chats.slice(0, SENDS_IN_FLIGHT).map((chat, i) => driver.send(outbound(`hung-${i}`, chat)));
    await settle();
    expect(written).toHaveLength(SENDS_IN_FLIGHT);
    timers.advance(SEND_TURN_HOLD_MS);
    for (const outcome of stuck) await expect(outcome).rejects.toBeInstanceOf(TransientSendError);
    // The channel's turns are free again: the next send is written at once.
    const next = driver.send(outbound('after-the-hung-ones', chats.at(-1)!));
    await settle();
    expect(written).toContain(whatsappMessageId('after-the-hung-ones'));
    timers.advance(SEND_TURN_HOLD_MS);
    await expect(next).rejects.toBeInstanceOf(TransientSendError);
  });
});
