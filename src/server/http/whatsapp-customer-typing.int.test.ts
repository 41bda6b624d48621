import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTyping } from '../../contract/realtime.ts';
import { eventually } from '../testing/eventually.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { databaseKind } from '../testing/test-database.ts';
import { RIG_CUSTOMER, startWhatsAppFaultRig, type WhatsAppFaultRig } from '../testing/whatsapp-fault-rig.ts';

const jid = `${RIG_CUSTOMER}@s.whatsapp.net`;

/**
 * A personal WhatsApp channel (the real library, Baileys, against the fake WhatsApp server) hears its customer typing:
 * WhatsApp tells it only to a connection subscribed to the customer's presence, so the session subscribes when the
 * customer writes, and again on a new connection once the agent types in the chat; each `<chatstate>` of writing or
 * recording reaches the frame's typing indicator.
 */
describe(`personal WhatsApp: the customer typing reaches the frame (${databaseKind()})`, () => {
  let rig: WhatsAppFaultRig;
  let frameToken: string;
  let frame: FrameClient;
  const typing: ChatTyping[] = [];
  const subscribed = () => rig.server.presenceSubscriptions().some((jids) => jids.includes(jid));

  beforeAll(async () => {
    rig = await startWhatsAppFaultRig({ secretKey: 'w'.repeat(40) });
    frameToken = await openFrame(rig.t, rig.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    frame = frameClient(rig.base, frameToken);
    frame.socket.on('typing', (shown) => typing.push(shown));
    await frame.connect();
  }, 60_000);
  afterAll(async () => {
    frame?.close();
    await rig?.close();
  });

  it('subscribes to the presence of a customer who wrote, and shows their writing, their pause and their recording', async () => {
    await eventually(async () => (subscribed() ? true : undefined));
    expect(await rig.server.customerTyping('composing')).toBe(1);
    await frame.until(() => typing.length >= 1, 'the customer writing');
    expect(typing[0]).toMatchObject({ channel_id: rig.channelId, chat_type: 'whatsapp', chat_id: RIG_CUSTOMER, chat_ref: expect.any(String) });
    expect(await rig.server.customerTyping('paused')).toBe(1);
    await frame.until(() => typing.length >= 2, 'the customer pausing');
    expect(await rig.server.customerTyping('recording')).toBe(1);
    await frame.until(() => typing.length >= 3, 'the customer recording');
    expect(typing.map((shown) => shown.stopped ?? false)).toEqual([false, true, false]);
  });

  it('subscribes again on a new connection once the agent types in the chat', async () => {
    const before = rig.server.logins();
    await rig.server.streamError('restartRequired');
    await eventually(async () => (rig.server.logins() > before && rig.server.openConnections() === 1 ? true : undefined), 30_000);
    // WhatsApp keeps a subscription for the connection that made it only.
    expect(await rig.server.customerTyping('composing')).toBe(0);
    const chat = await eventually(async () => ((await rig.t.call('GET', '/bff/chats', { token: frameToken })).json().data.chats as { chat_ref: string }[])[0]);
    const shown = typing.length;
    // Told once the new connection is open (before that the session has no socket to tell it through).
    await eventually(async () => ((await rig.t.call('POST', `/bff/chats/${chat.chat_ref}/typing`, { token: frameToken })).statusCode === 204 ? true : undefined));
    await eventually(async () => (subscribed() ? true : undefined));
    expect(await rig.server.customerTyping('composing')).toBe(1);
    await frame.until(() => typing.length > shown, 'the customer writing after the reconnect');
  });
});
