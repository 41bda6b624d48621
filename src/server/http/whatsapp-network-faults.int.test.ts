import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import type { FaultRelay } from '../testing/fault-relay.ts';
import type { TestGateway } from '../testing/harness.ts';
import { sendStatuses } from '../testing/session-takeover.ts';
import { databaseKind } from '../testing/test-database.ts';
import type { FaultServer } from '../testing/whatsapp-fault-server.ts';
import { startWhatsAppFaultRig, type WhatsAppFaultRig } from '../testing/whatsapp-fault-rig.ts';
import { channelHealth } from '../testing/whatsapp-linked-channel.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';

const SECRET_KEY = 'f'.repeat(40);
/**
 * The session's watchdog, shortened for the test (the driver's defaults are 30 s, 25 s and 15 s): a connection
 * attempt that did not open in 8 s is given up, an open connection that heard nothing for 12 s is dead (the library's
 * keepalive goes every 10 s), and a session not open for 3 s more shows on its channel.
 */
const liveness = { openMs: 8_000, silenceMs: 12_000, unreachableMs: 3_000 };
/** Slack for a loaded machine (a poll, a reconnect's wait, a database write). */
const SLACK_MS = 5_000;

/**
 * The real library (Baileys 7) against the fake WhatsApp server through a relay that fails the way networks do. What
 * counts is what the server received, by WhatsApp message id: every accepted send arrives once, and none is recorded
 * `sent` before the server's ack for it came back.
 */
describe(`personal WhatsApp over a failing network (${databaseKind()})`, () => {
  let rig: WhatsAppFaultRig;
  let server: FaultServer;
  let relay: FaultRelay;
  let t: TestGateway;
  let channelId: string;

  const send = (text: string) => rig.send(text);
  const statuses = (ids: string[]) => sendStatuses(t.gateway.database.db, ids);
  const allSent = (ids: string[], timeoutMs: number) =>
    eventually(async () => {
      const now = await statuses(ids);
      return ids.every((id) => now[id] === 'sent') ? now : undefined;
    }, timeoutMs);
  /** Each text reached WhatsApp exactly once, under the id drawn from its request id. */
  const expectDeliveredOnce = (sends: Record<string, string>) => {
    for (const [text, requestId] of Object.entries(sends)) {
      expect(server.delivered.filter((d) => d.text === text).map((d) => d.id), text).toEqual([whatsappMessageId(requestId)]);
    }
  };
  /** None of these sends is `sent` unless the server's ack for its id was written. */
  const expectNoSentWithoutAck = async (ids: string[]) => {
    const now = await statuses(ids);
    for (const id of ids) if (now[id] === 'sent') expect(server.acked.has(whatsappMessageId(id)), `send ${id} recorded sent without WhatsApp's ack`).toBe(true);
  };

  beforeAll(async () => {
    rig = await startWhatsAppFaultRig({ secretKey: SECRET_KEY, relay: true, liveness });
    ({ server, t, channelId } = rig);
    relay = rig.relay!;
  });
  // A test that failed midway leaves no fault behind for the next one.
  afterEach(() => {
    relay.restore();
    server.setAcks('now');
    server.releaseAcks();
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('records a send sent only once WhatsApp acked it, and sends it again under its id when the ack never came', async () => {
    server.setAcks('lose');
    const id = await send('acked never, then sent again');
    await eventually(async () => (server.deliveredCount('acked never, then sent again') === 1 ? true : undefined), 10_000);
    // WhatsApp has the message but said nothing: the send is not `sent`.
    await new Promise((r) => setTimeout(r, 1_000));
    await expectNoSentWithoutAck([id]);
    server.setAcks('now');
    relay.drop();
    await allSent([id], 30_000);
    await expectNoSentWithoutAck([id]);
    expectDeliveredOnce({ 'acked never, then sent again': id });
    expect(await channelHealth(t.gateway.database.db, channelId)).toMatchObject({ status: 'active', keys: true });
  });

  it('records a send sent only after WhatsApp’s ack reached it, when acks come late', async () => {
    relay.stall('down', { delayMs: 2_000 });
    const id = await send('acked late');
    const arrived = await eventually(async () => server.delivered.find((d) => d.text === 'acked late'), 10_000);
    // Until the ack crosses the stalled direction, the send stays unacknowledged.
    while (Date.now() < arrived.at + 1_500) {
      expect((await statuses([id]))[id]).not.toBe('sent');
      await new Promise((r) => setTimeout(r, 100));
    }
    relay.restore();
    await allSent([id], 20_000);
    expectDeliveredOnce({ 'acked late': id });
  });

  it('sends nothing as sent while the network is silently dead, shows the session down within the watchdog’s bound, and delivers every send once after', async () => {
    const deadAt = Date.now();
    relay.blackhole({ lose: true });
    const texts = ['through the dead network 1', 'through the dead network 2', 'through the dead network 3'];
    const ids: string[] = [];
    for (const text of texts) ids.push(await send(text));
    // The socket is dead from the first moment; the channel may show `active` until the watchdog saw it.
    let shownDownAt: number | null = null;
    // A dead session shows `active` for the watchdog's silence bound at most (not that plus the unreachable threshold).
    while (Date.now() - deadAt < Math.max(liveness.silenceMs, liveness.unreachableMs) + SLACK_MS) {
      const now = await statuses(ids);
      expect(Object.values(now).filter((s) => s === 'sent'), 'sends recorded sent over a dead network').toEqual([]);
      const { status } = await channelHealth(t.gateway.database.db, channelId);
      if (status !== 'active') {
        shownDownAt ??= Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(server.delivered.filter((d) => texts.includes(d.text))).toEqual([]);
    expect(shownDownAt, 'the channel still showed active over the dead session').not.toBeNull();
    console.info(`silently dead network: the channel showed active ${shownDownAt! - deadAt} ms over a dead session`);
    relay.restore();
    await allSent(ids, 60_000);
    await expectNoSentWithoutAck(ids);
    expectDeliveredOnce(Object.fromEntries(texts.map((text, i) => [text, ids[i]!])));
    await eventually(async () => ((await channelHealth(t.gateway.database.db, channelId)).status === 'active' ? true : undefined), 20_000);
    expect(await channelHealth(t.gateway.database.db, channelId)).toMatchObject({ keys: true });
  }, 120_000);

  it('takes a queue of customers’ messages that waited through a dead network on one reconnect, answering each without being closed for a flood', async () => {
    relay.blackhole({ lose: true });
    // Written to a connection that is dead already: WhatsApp keeps them (unacked) and writes them again on the next.
    const texts = Array.from({ length: 40 }, (_, i) => `waited offline ${i + 1}`);
    for (const text of texts) await server.inject(text, '15557654321');
    const logins = server.logins();
    relay.restore();
    relay.drop();
    await eventually(async () => {
      const rows = await t.gateway.database.db.selectFrom('messages').select('text').where('direction', '=', 'inbound').where('text', 'in', texts).execute();
      return rows.length === texts.length ? true : undefined;
    }, 30_000);
    // The library answers each of them (an ack and a receipt): a server that closed on that many frames at once
    // would close each reconnect for good, as the same queue (never acked) comes again each time.
    await eventually(async () => (server.offlineQueue() === 0 && server.openConnections() === 1 ? true : undefined), 15_000);
    expect([...server.closes().keys()].filter((why) => why.startsWith('1009'))).toEqual([]);
    expect(server.logins()).toBe(logins + 1);
  }, 60_000);

  it('gives up a connection whose writes no longer get through while customers’ messages still come, within the watchdog’s bound', async () => {
    const stalledAt = Date.now();
    relay.stall('up');
    // WhatsApp goes on writing to the account; nothing the account writes (keepalives, receipts, sends) reaches it.
    let shownDownAt: number | null = null;
    for (let n = 1; Date.now() - stalledAt < liveness.silenceMs + SLACK_MS; n++) {
      await server.inject(`written while the account cannot answer ${n}`);
      if ((await channelHealth(t.gateway.database.db, channelId)).status !== 'active') {
        shownDownAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(shownDownAt, 'the channel still showed active over a connection that could not write').not.toBeNull();
    relay.restore();
    await eventually(async () => ((await channelHealth(t.gateway.database.db, channelId)).status === 'active' ? true : undefined), 30_000);
  }, 60_000);

  it('connects again by itself after WhatsApp answered a connection’s upgrade with 503, and delivers what was sent meanwhile', async () => {
    const logins = server.logins();
    relay.refuseUpgrades(1);
    const droppedAt = Date.now();
    relay.drop();
    const id = await send('sent while the upgrade was refused');
    await eventually(async () => (server.logins() > logins ? true : undefined), liveness.openMs + SLACK_MS);
    console.info(`upgrade answered 503: the session was back after ${Date.now() - droppedAt} ms`);
    // Tried again on the send queue's backoff, which grew while the session was down.
    await allSent([id], 60_000);
    expectDeliveredOnce({ 'sent while the upgrade was refused': id });
  }, 120_000);
});
