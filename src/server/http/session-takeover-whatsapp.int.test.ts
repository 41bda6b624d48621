import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhatsAppServer, type StartedWhatsAppServer } from '@openclaw/crabline';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { nextOwner, liveOwner, recordedTexts, sendStatuses, whatsappProcesses } from '../testing/session-takeover.ts';
import { seedLinkedWhatsAppChannel } from '../testing/whatsapp-linked-channel.ts';
import type { SpawnedGateway } from '../testing/spawned-gateway.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';

const SECRET_KEY = 'w'.repeat(40);
/** Short, so that the test waits little: a lapsed lease is taken over within 4 s plus a renewal (1 s). */
const LEASE_SECONDS = 4;
const CUSTOMER = '15551234567';

/**
 * Gateway processes on one PostgreSQL running one personal WhatsApp session (the real library, Baileys 7, over a
 * real WebSocket to a fake WhatsApp server that queues what is written while no client is connected). The owner is
 * killed with SIGKILL (no hook runs, its lease is never let go) and later another one is stopped with SIGTERM: the
 * session moves, and every send and every customer's message around the move is recorded and delivered once.
 */
describe.runIf(databaseKind() === 'postgres')('a personal WhatsApp session moving between gateway processes', () => {
  let server: StartedWhatsAppServer;
  let database: TestDatabase;
  let recorderDir: string;
  /** Every message the server accepted from the account, as WhatsApp keeps it: one per message id. */
  const delivered: { id: string; text: string }[] = [];
  /** Runs once WhatsApp has taken the message with this text (the process sending it is then killed). */
  const onDelivered = new Map<string, () => void>();
  const channelId = crypto.randomUUID();
  const processes = whatsappProcesses({
    database: () => database,
    secretKey: SECRET_KEY,
    leaseSeconds: LEASE_SECONDS,
    channelId,
    customer: CUSTOMER,
    wsUrl: () => server.manifest.endpoints.baileysWebSocketUrl,
    // Names the processes' database connections takeover-gateway-<n>: the test ends the first one's by it.
    dataDirPrefix: 'takeover-',
  });
  const { start, send, allSent, gateways } = processes;
  const inject = async (text: string) => {
    const res = await fetch(server.manifest.endpoints.adminInboundUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crabline-admin-token': server.manifest.adminToken },
      body: JSON.stringify({ chatJid: `${CUSTOMER}@s.whatsapp.net`, senderJid: `${CUSTOMER}@s.whatsapp.net`, text }),
    });
    expect(res.status).toBe(200);
  };
  const deliveredOf = (texts: string[]) => Object.fromEntries(texts.map((text) => [text, delivered.filter((d) => d.text === text).length]));

  beforeAll(async () => {
    recorderDir = await mkdtemp(join(tmpdir(), 'wa-server-'));
    server = await startWhatsAppServer({
      host: '127.0.0.1',
      port: 0,
      recorderPath: join(recorderDir, 'whatsapp.jsonl'),
      onEvent(event) {
        const body = event.body as { key?: { id: string; fromMe: boolean }; message?: { conversation?: string } } | undefined;
        if (!(event as { accepted?: boolean }).accepted || !body?.key?.fromMe || !body.message?.conversation) return;
        delivered.push({ id: body.key.id, text: body.message.conversation });
        onDelivered.get(body.message.conversation)?.();
      },
    });
    database = await createTestDatabase();
    await processes.open('Takeover');
    await seedLinkedWhatsAppChannel(processes.direct.db, { channelId, accountId: processes.accountId, selfJid: server.manifest.selfJid, secretKey: SECRET_KEY });
    await eventually(async () => (await liveOwner(processes.direct.db, channelId)) ?? undefined, 20_000);
    // The session runs: a customer's message comes through the first process.
    await inject('hello before anything happens');
    await eventually(async () => ((await recordedTexts(processes.direct.db, 'inbound', ['hello before anything happens']))['hello before anything happens'] === 1 ? true : undefined), 20_000);
    await start();
  }, 120_000);

  afterAll(async () => {
    await processes.close();
    await server?.close();
    await database?.drop();
    if (recorderDir) await rm(recorderDir, { recursive: true, force: true });
  });

  it('is taken over by the other process after a SIGKILL of its owner mid-send, within the lease, with nothing lost or sent twice', async () => {
    const [owner, other] = gateways as [SpawnedGateway, SpawnedGateway];
    const killedOwner = (await liveOwner(processes.direct.db, channelId))!;
    // Accepted through the other process's API (the owner's dies under requests); the owner sends them.
    const first = await send(other, 'send 1 before the kill');
    await allSent([first], 20_000);
    // The owner dies the moment WhatsApp has taken the next send, before it could record WhatsApp's answer: the test
    // holds back the recording of answers (it takes the events table's share lock, which the recording's insert waits
    // for) until the owner is dead. The last send still waits behind it in the chat.
    let killedAt = 0;
    let locked = false;
    const held = processes.direct.db.transaction().execute(async (tx) => {
      await sql`lock table events in share mode`.execute(tx);
      locked = true;
      await new Promise<void>((resolve) =>
        onDelivered.set('send 2 before the kill', () => {
          onDelivered.clear();
          owner.child.kill('SIGKILL');
          killedAt = performance.now();
          resolve();
        }),
      );
      // Its connections go with it: a statement it sent that still waits (the recording) is not carried out.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'takeover-gateway-0'`.execute(tx);
    });
    await eventually(async () => (locked ? true : undefined));
    const before = [first, await send(other, 'send 2 before the kill'), await send(other, 'send 3 before the kill')];
    await held;
    await owner.kill();
    expect(await sendStatuses(processes.direct.db, before)).toEqual({ [before[0]!]: 'sent', [before[1]!]: 'accepted', [before[2]!]: 'accepted' });
    // While nobody runs the session: a customer writes (WhatsApp queues it), and the other process accepts sends.
    await inject('written while nobody ran the session');
    const during = [await send(other, 'send 4 during the gap'), await send(other, 'send 5 during the gap')];

    const took = await nextOwner(processes.direct.db, channelId, killedOwner, killedAt);
    const inboundAt = await eventually(async () => ((await recordedTexts(processes.direct.db, 'inbound', ['written while nobody ran the session']))['written while nobody ran the session'] === 1 ? performance.now() - killedAt : undefined), 30_000);
    // A send the dead process had claimed is the new owner's at once, not when that claim lapses (30 s).
    await allSent([...before, ...during], 30_000);
    const sentAt = performance.now() - killedAt;
    console.info(`SIGKILL takeover: lease held elsewhere after ${Math.round(took.ms)} ms, queued message recorded after ${Math.round(inboundAt)} ms, every send sent after ${Math.round(sentAt)} ms`);
    expect(took.ms).toBeLessThan(30_000);
    expect(sentAt).toBeLessThan(20_000);

    const texts = ['send 1 before the kill', 'send 2 before the kill', 'send 3 before the kill', 'send 4 during the gap', 'send 5 during the gap'];
    expect(await recordedTexts(processes.direct.db, 'outbound', texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    // WhatsApp holds one message per id: each send reached it under one id, whichever process sent it.
    await eventually(async () => (texts.every((t) => delivered.some((d) => d.text === t)) ? true : undefined));
    expect(deliveredOf(texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    // The send at WhatsApp but not recorded when the owner died is recorded by the new owner under the one id it has.
    const cutOff = await processes.direct.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', before[1]!).executeTakeFirstOrThrow();
    expect(cutOff.messenger_message_id).toBe(whatsappMessageId(before[1]!));
    expect(delivered.find((d) => d.text === 'send 2 before the kill')!.id).toBe(cutOff.messenger_message_id);
    expect(await recordedTexts(processes.direct.db, 'inbound', ['hello before anything happens', 'written while nobody ran the session'])).toEqual({
      'hello before anything happens': 1,
      'written while nobody ran the session': 1,
    });
  }, 90_000);

  it('is handed over at once by a process stopping on SIGTERM, without waiting for the lease', async () => {
    const holder = gateways[1]!;
    const next = await start();
    const heldBy = (await liveOwner(processes.direct.db, channelId))!;
    const stopping = holder.stop();
    const stoppedAt = performance.now();
    const took = await nextOwner(processes.direct.db, channelId, heldBy, stoppedAt);
    await stopping;
    console.info(`SIGTERM hand-over: lease held elsewhere after ${Math.round(took.ms)} ms`);
    // Let go, not lapsed: taken at once (the next process is told), well before the lease could have lapsed.
    expect(took.ms).toBeLessThan(LEASE_SECONDS * 1000);

    await inject('written after the hand-over');
    const answer = await send(next, 'send 6 after the hand-over');
    await allSent([answer], 20_000);
    await eventually(async () => ((await recordedTexts(processes.direct.db, 'inbound', ['written after the hand-over']))['written after the hand-over'] === 1 ? true : undefined), 20_000);
    await eventually(async () => (delivered.some((d) => d.text === 'send 6 after the hand-over') ? true : undefined));
    expect(deliveredOf(['send 6 after the hand-over'])).toEqual({ 'send 6 after the hand-over': 1 });
    expect(await recordedTexts(processes.direct.db, 'inbound', ['hello before anything happens', 'written while nobody ran the session'])).toEqual({
      'hello before anything happens': 1,
      'written while nobody ran the session': 1,
    });
  }, 90_000);
});
