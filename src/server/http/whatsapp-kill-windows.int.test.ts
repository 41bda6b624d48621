import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../storage/database.ts';
import { eventually } from '../testing/eventually.ts';
import { startFaultRelay, type FaultRelay } from '../testing/fault-relay.ts';
import { liveOwner, nextOwner, recordedTexts, sendStatuses } from '../testing/session-takeover.ts';
import { callJson, spawnGateway, type SpawnedGateway } from '../testing/spawned-gateway.ts';
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
  let direct: Database;
  const dataDirs: string[] = [];
  const gateways: SpawnedGateway[] = [];
  const channelId = crypto.randomUUID();
  const partnerKey = randomBytes(24).toString('base64url');
  let token: string;

  const start = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gw-kill-'));
    dataDirs.push(dataDir);
    if (database.target.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const gateway = await spawnGateway({
      dataDir,
      databaseUrl: database.target.url,
      partnerKey,
      env: { SECRET_KEY, TRANSPORT_MODE: 'live', WHATSAPP_PERSONAL: 'on', WHATSAPP_WS_URL: relay.url(server.wsUrl), SESSION_LEASE_SECONDS: String(LEASE_SECONDS) },
    });
    gateways.push(gateway);
    return gateway;
  };
  const send = async (via: SpawnedGateway, text: string) => {
    const res = await callJson<{ request_id: string }>(via.baseURL, 'POST', '/v2/messages', token, { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: CUSTOMER }, text });
    expect(res.status).toBe(201);
    return res.data.request_id;
  };
  const allSent = (requestIds: string[], timeoutMs: number) =>
    eventually(async () => {
      const statuses = await sendStatuses(direct.db, requestIds);
      return requestIds.every((id) => statuses[id] === 'sent') ? statuses : undefined;
    }, timeoutMs);
  const expectDeliveredOnce = (sends: Record<string, string>) => {
    for (const [text, requestId] of Object.entries(sends)) expect(server.delivered.filter((d) => d.text === text).map((d) => d.id), text).toEqual([whatsappMessageId(requestId)]);
  };
  const expectNoSentWithoutAck = async (requestIds: string[]) => {
    const statuses = await sendStatuses(direct.db, requestIds);
    for (const id of requestIds) if (statuses[id] === 'sent') expect(server.acked.has(whatsappMessageId(id)), `send ${id} recorded sent without WhatsApp's ack`).toBe(true);
  };
  const alive = () => gateways.filter((g) => g.child.exitCode === null && g.child.signalCode === null);

  beforeAll(async () => {
    server = await startFaultServer();
    relay = await startFaultRelay({ host: '127.0.0.1', port: Number(new URL(server.wsUrl).port) });
    database = await createTestDatabase();
    const first = await start();
    direct = await openDatabase(database.target);
    const accountId = (await callJson<{ account_id: string }>(first.baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Kill windows' })).data.account_id;
    token = (await callJson<{ token: string }>(first.baseURL, 'POST', `/v2/accounts/${accountId}/tokens`, partnerKey, { kind: 'client' })).data.token;
    await seedLinkedWhatsAppChannel(direct.db, { channelId, accountId, selfJid: server.server.manifest.selfJid, secretKey: SECRET_KEY });
    await eventually(async () => (server.logins() > 0 ? true : undefined), 30_000);
    await server.inject('hello before anything happens');
    await eventually(async () => ((await recordedTexts(direct.db, 'inbound', ['hello before anything happens']))['hello before anything happens'] === 1 ? true : undefined), 20_000);
    await start();
  }, 180_000);

  // A test that failed midway leaves no fault behind for the next one.
  afterEach(() => {
    relay.restore();
    server.setAcks('now');
    server.releaseAcks();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.kill()));
    await direct?.close();
    await relay?.close();
    await server?.close();
    await database?.drop();
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('sends again under the same id, once, what WhatsApp took but never acked when its owner was SIGKILLed', async () => {
    const [owner, other] = gateways as [SpawnedGateway, SpawnedGateway];
    const killed = (await liveOwner(direct.db, channelId))!;
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
    await nextOwner(direct.db, channelId, killed, killedAt);
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'taken, not acked, owner killed': id });
    expect(await recordedTexts(direct.db, 'outbound', ['taken, not acked, owner killed'])).toEqual({ 'taken, not acked, owner killed': 1 });
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
    await nextOwner(direct.db, channelId, null, killedAt, 30_000);
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'written, lost on the way, both killed': id });
  }, 120_000);

  it('keeps the session of the process that took it over when a frozen owner wakes up past its lease', async () => {
    const frozen = alive()[0]!;
    const next = await start();
    const heldBy = (await liveOwner(direct.db, channelId))!;
    const logins = server.logins();
    frozen.child.kill('SIGSTOP');
    const stoppedAt = performance.now();
    await nextOwner(direct.db, channelId, heldBy, stoppedAt, 30_000);
    // The new owner logs in; WhatsApp replaces the frozen one's connection (its "replaced" waits in the frozen socket).
    await eventually(async () => (server.logins() > logins ? true : undefined), 30_000);
    await new Promise((r) => setTimeout(r, Math.max(0, 3 * LEASE_SECONDS * 1000 - (performance.now() - stoppedAt))));
    frozen.child.kill('SIGCONT');
    // Awake, it reads WhatsApp's "replaced" and its lost lease: it must leave the channel to the new owner.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await channelHealth(direct.db, channelId)).toEqual({ status: 'active', reason: null, keys: true });
    const id = await send(next, 'after the frozen owner woke');
    await allSent([id], 30_000);
    expectDeliveredOnce({ 'after the frozen owner woke': id });
    await server.inject('written after the frozen owner woke');
    await eventually(async () => ((await recordedTexts(direct.db, 'inbound', ['written after the frozen owner woke']))['written after the frozen owner woke'] === 1 ? true : undefined), 20_000);
    expect(await channelHealth(direct.db, channelId)).toEqual({ status: 'active', reason: null, keys: true });
  }, 120_000);
});
