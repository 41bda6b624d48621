import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startFaultRelay, type FaultRelay } from '../testing/fault-relay.ts';
import { liveOwner, nextOwner, recordedTexts, sendStatuses, whatsappProcesses } from '../testing/session-takeover.ts';
import type { SpawnedGateway } from '../testing/spawned-gateway.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { startFaultServer, type FaultServer } from '../testing/whatsapp-fault-server.ts';
import { channelHealth, seedLinkedWhatsAppChannel } from '../testing/whatsapp-linked-channel.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';

const SECRET_KEY = 'k'.repeat(40);
/** Short, so that the test waits little: a lapsed lease is taken over within 4 s plus a renewal (1 s). */
const LEASE_SECONDS = 4;
const CUSTOMER = '15551234567';
/** Bytes the owner writes for one text message (a Signal-encrypted node): well above a keepalive's. */
const MESSAGE_BYTES = 200;

/**
 * Gateway processes on one PostgreSQL running one personal WhatsApp session (the real library, Baileys 7) through a
 * fault relay to the fake WhatsApp server, killed or stalled in the windows where a send is lost or doubled: after
 * the socket write and before WhatsApp's ack, after the write and before WhatsApp got the bytes, and an owner frozen
 * past its lease. What counts is what the server received, by WhatsApp message id.
 */
describe.runIf(databaseKind() === 'postgres')('a personal WhatsApp session killed between its write and WhatsApp’s ack', () => {
  let server: FaultServer;
  let relay: FaultRelay;
  let database: TestDatabase;
  const channelId = crypto.randomUUID();
  const processes = whatsappProcesses({
    database: () => database,
    secretKey: SECRET_KEY,
    leaseSeconds: LEASE_SECONDS,
    channelId,
    customer: CUSTOMER,
    wsUrl: () => relay.url(server.wsUrl),
    dataDirPrefix: 'gw-kill-',
  });
  const { start, send, allSent, alive, gateways } = processes;
  const expectDeliveredOnce = (sends: Record<string, string>) => {
    for (const [text, requestId] of Object.entries(sends)) expect(server.delivered.filter((d) => d.text === text).map((d) => d.id), text).toEqual([whatsappMessageId(requestId)]);
  };
  const expectNoSentWithoutAck = async (requestIds: string[]) => {
    const statuses = await sendStatuses(processes.direct.db, requestIds);
    for (const id of requestIds) if (statuses[id] === 'sent') expect(server.acked.has(whatsappMessageId(id)), `send ${id} recorded sent without WhatsApp's ack`).toBe(true);
  };

  beforeAll(async () => {
    server = await startFaultServer();
    relay = await startFaultRelay({ host: '127.0.0.1', port: Number(new URL(server.wsUrl).port) });
    database = await createTestDatabase();
    await processes.open('Kill windows');
    // Customers' messages come Signal-encrypted to the linked device, as phones write them.
    server.encryptInbound(await seedLinkedWhatsAppChannel(processes.direct.db, { channelId, accountId: processes.accountId, selfJid: server.server.manifest.selfJid, secretKey: SECRET_KEY }));
    await eventually(async () => (server.logins() > 0 ? true : undefined), 30_000);
    await server.inject('hello before anything happens');
    await eventually(async () => ((await recordedTexts(processes.direct.db, 'inbound', ['hello before anything happens']))['hello before anything happens'] === 1 ? true : undefined), 20_000);
    await start();
  }, 180_000);

  // A test that failed midway leaves no fault behind for the next one.
  afterEach(() => {
    relay.restore();
    server.setAcks('now');
    server.releaseAcks();
  });

  afterAll(async () => {
    await processes.close();
    await relay?.close();
    await server?.close();
    await database?.drop();
  });

  it('sends again under the same id, once, what WhatsApp took but never acked when its owner was SIGKILLed', async () => {
    const [owner, other] = gateways as [SpawnedGateway, SpawnedGateway];
    const killed = (await liveOwner(processes.direct.db, channelId))!;
    server.setAcks('hold');
    const id = await send(other, 'taken, not acked, owner killed');
    await eventually(async () => (server.deliveredCount('taken, not acked, owner killed') === 1 ? true : undefined), 20_000);
    // WhatsApp has it; its ack is held back: the window between the write and the ack.
    await new Promise((r) => setTimeout(r, 500));
    await expectNoSentWithoutAck([id]);
    const killedAt = performance.now();
    await owner.kill();
    server.releaseAcks();
    server.setAcks('now');
    await nextOwner(processes.direct.db, channelId, killed, killedAt);
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'taken, not acked, owner killed': id });
    expect(await recordedTexts(processes.direct.db, 'outbound', ['taken, not acked, owner killed'])).toEqual({ 'taken, not acked, owner killed': 1 });
  }, 90_000);

  it('delivers once, after both processes were SIGKILLed, what the owner wrote and WhatsApp never got', async () => {
    const holder = alive()[0]!;
    // The owner's bytes leave its socket and are lost on the way (and the connection with them).
    relay.stall('up', { lose: true });
    const before = relay.bytes('up');
    const id = await send(holder, 'written, lost on the way, both killed');
    await eventually(async () => (relay.bytes('up') - before >= MESSAGE_BYTES ? true : undefined), 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(server.deliveredCount('written, lost on the way, both killed')).toBe(0);
    await expectNoSentWithoutAck([id]);
    await Promise.all(alive().map((g) => g.kill()));
    relay.restore();
    const killedAt = performance.now();
    await start();
    await nextOwner(processes.direct.db, channelId, null, killedAt, 30_000);
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'written, lost on the way, both killed': id });
  }, 120_000);

  it('keeps the session of the process that took it over when a frozen owner wakes up past its lease', async () => {
    const frozen = alive()[0]!;
    const next = await start();
    const heldBy = (await liveOwner(processes.direct.db, channelId))!;
    const logins = server.logins();
    frozen.child.kill('SIGSTOP');
    const stoppedAt = performance.now();
    await nextOwner(processes.direct.db, channelId, heldBy, stoppedAt, 30_000);
    // The new owner logs in; WhatsApp replaces the frozen one's connection (its "replaced" waits in the frozen socket).
    await eventually(async () => (server.logins() > logins ? true : undefined), 30_000);
    await new Promise((r) => setTimeout(r, Math.max(0, 3 * LEASE_SECONDS * 1000 - (performance.now() - stoppedAt))));
    frozen.child.kill('SIGCONT');
    // Awake, it reads WhatsApp's "replaced" and its lost lease: it must leave the channel to the new owner.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await channelHealth(processes.direct.db, channelId)).toEqual({ status: 'active', reason: null, keys: true });
    const id = await send(next, 'after the frozen owner woke');
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'after the frozen owner woke': id });
    await server.inject('written after the frozen owner woke');
    await eventually(async () => ((await recordedTexts(processes.direct.db, 'inbound', ['written after the frozen owner woke']))['written after the frozen owner woke'] === 1 ? true : undefined), 20_000);
    expect(await channelHealth(processes.direct.db, channelId)).toEqual({ status: 'active', reason: null, keys: true });
  }, 120_000);
});
