import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import type { TestGateway } from '../testing/harness.ts';
import { sendStatuses } from '../testing/session-takeover.ts';
import { databaseKind } from '../testing/test-database.ts';
import type { FaultServer } from '../testing/whatsapp-fault-server.ts';
import { startWhatsAppFaultRig, type WhatsAppFaultRig } from '../testing/whatsapp-fault-rig.ts';
import { channelHealth } from '../testing/whatsapp-linked-channel.ts';
import type { StreamErrorKind } from '../testing/whatsapp-stream-errors.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';

const SECRET_KEY = 's'.repeat(40);

/**
 * WhatsApp ends a session's stream now and then with an error the library knows or does not (whatsapp-stream-errors.ts
 * says what each one is): only the phone's logout (401) wipes the linked device's keys. Any other one is reconnected,
 * the channel stays the customer's without a new scan, and a send after it reaches WhatsApp once.
 */
describe(`personal WhatsApp through WhatsApp's stream errors (${databaseKind()})`, () => {
  let rig: WhatsAppFaultRig;
  let server: FaultServer;
  let t: TestGateway;
  let channelId: string;

  const send = (text: string) => rig.send(text);
  const sentOnce = async (text: string) => {
    const requestId = await send(text);
    await eventually(async () => ((await sendStatuses(t.gateway.database.db, [requestId]))[requestId] === 'sent' ? true : undefined), 30_000);
    expect(server.delivered.filter((d) => d.text === text).map((d) => d.id)).toEqual([whatsappMessageId(requestId)]);
    expect(server.acked.has(whatsappMessageId(requestId))).toBe(true);
  };
  const health = () => channelHealth(t.gateway.database.db, channelId);
  /** Logged in again, or ended: a channel the session gave up fails here at once, not after the wait. */
  const loggedInAgain = async (before: number) => {
    await eventually(async () => (server.logins() > before && server.openConnections() === 1 ? true : (await health()).status === 'disabled' ? true : undefined), 30_000);
    expect(await health()).toEqual({ status: 'active', reason: null, keys: true });
  };

  beforeAll(async () => {
    rig = await startWhatsAppFaultRig({ secretKey: SECRET_KEY });
    ({ server, t, channelId } = rig);
  });
  // A test that failed midway leaves no fault behind for the next one.
  afterEach(() => {
    server.setAcks('now');
    server.releaseAcks();
  });

  afterAll(async () => {
    await rig?.close();
  });

  const reconnected: [StreamErrorKind, string][] = [
    ['unknownChild', 'a stream error with a child the library does not know (500)'],
    ['replaced', 'one conflict "replaced" (440)'],
    ['restartRequired', 'restart required (515)'],
    ['unavailable', 'service unavailable (503)'],
  ];
  for (const [kind, what] of reconnected) {
    it(`reconnects after ${what}, keeping the keys and the channel active`, async () => {
      const before = server.logins();
      expect(await server.streamError(kind)).toBe(1);
      await loggedInAgain(before);
      await sentOnce(`after ${kind}`);
    });
  }

  it('reconnects after a login WhatsApp refused without a reason (the library’s 500 "bad session")', async () => {
    const before = server.logins();
    server.failLogins('withoutReason');
    await server.streamError('restartRequired');
    await loggedInAgain(before);
    await sentOnce('after a failure without a reason');
  });

  // Last: the one end that is for good.
  it('ends the session and wipes its keys when the phone removed the linked device (401)', async () => {
    expect(await server.streamError('deviceRemoved')).toBe(1);
    const ended = await eventually(async () => {
      const now = await health();
      return now.status === 'disabled' ? now : undefined;
    }, 20_000);
    expect(ended).toMatchObject({ keys: false });
  });
});
