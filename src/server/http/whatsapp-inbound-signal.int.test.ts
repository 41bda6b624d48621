import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startWhatsAppFaultRig, type WhatsAppFaultRig } from '../testing/whatsapp-fault-rig.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';

/**
 * Customers' messages as phones write them: Signal-encrypted to the account's linked device, the first from a new
 * session (`pkmsg`), later ones on the session both sides share (`msg`), decrypted by the real library (Baileys 7)
 * with the keys the gateway keeps. And the window where a phone's message is decrypted but its receipt never reaches
 * WhatsApp: WhatsApp writes the same ciphertext again, the library cannot decrypt it twice and asks for it again
 * (a retry receipt), the phone encrypts it anew, and the message is recorded once.
 */
describe('a personal WhatsApp session decrypting customers’ messages', () => {
  let rig: WhatsAppFaultRig;
  const inboundTexts = async () =>
    (await rig.t.gateway.database.db.selectFrom('messages').select(['text', 'attachment']).where('channel_id', '=', rig.channelId).where('direction', '=', 'inbound').execute()).map(
      (row) => row.text ?? (row.attachment ? '<file>' : '<empty>'),
    );
  const recordedOnce = (text: string) => async () => ((await inboundTexts()).filter((t) => t === text).length === 1 ? true : undefined);

  beforeAll(async () => {
    rig = await startWhatsAppFaultRig({ secretKey: 's'.repeat(40), relay: true, encrypted: true });
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('decrypts a new session’s message and the next ones on the session both directions share', async () => {
    // The rig's first message ("hello from the phone") started the session.
    expect(rig.server.encryption()).toMatchObject({ pkmsg: 1, msg: 0 });
    // The account answers on that session: the phone decrypts it with the same ratchet.
    const requestId = await rig.send('an answer on the same session');
    await eventually(async () => (rig.server.deliveredCount('an answer on the same session') === 1 ? true : undefined), 20_000);
    expect(rig.server.delivered.find((d) => d.text === 'an answer on the same session')?.id).toBe(whatsappMessageId(requestId));
    // Having heard from the account, the phone writes on the established session.
    await rig.server.inject('a second message from the phone');
    await eventually(recordedOnce('a second message from the phone'), 20_000);
    expect(rig.server.encryption()).toMatchObject({ pkmsg: 1, msg: 1, retried: 0 });
  }, 60_000);

  it('records once a message decrypted whose receipt was lost, written again by WhatsApp and asked for again', async () => {
    const relay = rig.relay!;
    // What the account writes from now on never reaches WhatsApp: its receipt of the next message is lost.
    relay.stall('up', { lose: true });
    await rig.server.inject('a message whose receipt is lost');
    await eventually(recordedOnce('a message whose receipt is lost'), 20_000);
    expect(rig.server.offlineQueue()).toBeGreaterThan(0);
    // The connection resets; on the next one WhatsApp writes the same ciphertext again from its offline queue.
    const logins = rig.server.logins();
    relay.restore();
    await eventually(async () => (rig.server.logins() > logins ? true : undefined), 30_000);
    // The library cannot decrypt the same ciphertext twice: it asks again, and the phone encrypts the message anew.
    await eventually(async () => (rig.server.encryption().retried > 0 && rig.server.offlineQueue() === 0 ? true : undefined), 30_000);
    await rig.server.inject('and the conversation goes on');
    await eventually(recordedOnce('and the conversation goes on'), 20_000);
    const texts = await inboundTexts();
    expect(texts.filter((t) => t === 'a message whose receipt is lost')).toHaveLength(1);
    // A message the library could not decrypt is a stub with no content: nothing empty is recorded for it.
    expect(texts.filter((t) => t === '<empty>')).toEqual([]);
    expect(texts).toEqual(['hello from the phone', 'a second message from the phone', 'a message whose receipt is lost', 'and the conversation goes on']);
  }, 90_000);
});
