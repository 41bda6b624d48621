import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhatsAppServer, type StartedWhatsAppServer } from '@openclaw/crabline';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsCipher } from '../storage/credentials-cipher.ts';
import { openDatabase, type Database } from '../storage/database.ts';
import { eventually } from '../testing/eventually.ts';
import { nextOwner, liveOwner, recordedTexts, sendStatuses } from '../testing/session-takeover.ts';
import { callJson, spawnGateway, type SpawnedGateway } from '../testing/spawned-gateway.ts';
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
  let direct: Database;
  const dataDirs: string[] = [];
  const gateways: SpawnedGateway[] = [];
  /** Every message the server accepted from the account, as WhatsApp keeps it: one per message id. */
  const delivered: { id: string; text: string }[] = [];
  /** Runs once WhatsApp has taken the message with this text (the process sending it is then killed). */
  const onDelivered = new Map<string, () => void>();
  const channelId = crypto.randomUUID();
  const partnerKey = randomBytes(24).toString('base64url');
  let token: string;

  const start = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gw-takeover-'));
    dataDirs.push(dataDir);
    if (database.target.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const gateway = await spawnGateway({
      dataDir,
      databaseUrl: database.target.url,
      partnerKey,
      env: {
        SECRET_KEY,
        TRANSPORT_MODE: 'live',
        WHATSAPP_PERSONAL: 'on',
        WHATSAPP_WS_URL: server.manifest.endpoints.baileysWebSocketUrl,
        SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
        // Names the process's database connections, so that the test can end them with it.
        PGAPPNAME: `takeover-gateway-${gateways.length}`,
      },
    });
    gateways.push(gateway);
    return gateway;
  };
  const inject = async (text: string) => {
    const res = await fetch(server.manifest.endpoints.adminInboundUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crabline-admin-token': server.manifest.adminToken },
      body: JSON.stringify({ chatJid: `${CUSTOMER}@s.whatsapp.net`, senderJid: `${CUSTOMER}@s.whatsapp.net`, text }),
    });
    expect(res.status).toBe(200);
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
  const deliveredOf = (texts: string[]) => Object.fromEntries(texts.map((text) => [text, delivered.filter((d) => d.text === text).length]));

  beforeAll(async () => {
    const recorderDir = await mkdtemp(join(tmpdir(), 'wa-server-'));
    dataDirs.push(recorderDir);
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
    const first = await start();
    direct = await openDatabase(database.target);
    const accountId = (await callJson<{ account_id: string }>(first.baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Takeover' })).data.account_id;
    token = (await callJson<{ token: string }>(first.baseURL, 'POST', `/v2/accounts/${accountId}/tokens`, partnerKey, { kind: 'client' })).data.token;
    // A channel linked to the server's account, as a scan would have left it: active, its session's credentials stored.
    const { initAuthCreds, BufferJSON } = await import('baileys');
    const creds = { ...initAuthCreds(), me: { id: server.manifest.selfJid.replace('@', ':1@'), name: 'Acme Shop' } };
    const now = new Date();
    const phone = server.manifest.selfJid.split('@')[0]!;
    await direct.db
      .insertInto('channels')
      .values({ id: channelId, account_id: accountId, transport: 'whatsapp', status: 'active', reason: null, phone, username: null, messenger_id: phone, name: 'Acme Shop', auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: now, updated_at: now })
      .execute();
    await direct.db.insertInto('sessions').values({ channel_id: channelId, transport: 'whatsapp', owner: null, lease_until: null }).execute();
    const sealed = credentialsCipher(SECRET_KEY).seal({ v: JSON.parse(JSON.stringify(creds, BufferJSON.replacer)) });
    await direct.db.insertInto('session_state').values({ channel_id: channelId, key: 'creds', value: sealed }).execute();
    await eventually(async () => (await liveOwner(direct.db, channelId)) ?? undefined, 20_000);
    // The session runs: a customer's message comes through the first process.
    await inject('hello before anything happens');
    await eventually(async () => ((await recordedTexts(direct.db, 'inbound', ['hello before anything happens']))['hello before anything happens'] === 1 ? true : undefined), 20_000);
    await start();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.kill()));
    await direct?.close();
    await server?.close();
    await database?.drop();
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('is taken over by the other process after a SIGKILL of its owner mid-send, within the lease, with nothing lost or sent twice', async () => {
    const [owner, other] = gateways as [SpawnedGateway, SpawnedGateway];
    const killedOwner = (await liveOwner(direct.db, channelId))!;
    // Accepted through the other process's API (the owner's dies under requests); the owner sends them.
    const first = await send(other, 'send 1 before the kill');
    await allSent([first], 20_000);
    // The owner dies the moment WhatsApp has taken the next send, before it could record WhatsApp's answer: the test
    // holds back the recording of answers (it takes the events table's share lock, which the recording's insert waits
    // for) until the owner is dead. The last send still waits behind it in the chat.
    let killedAt = 0;
    let locked = false;
    const held = direct.db.transaction().execute(async (tx) => {
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
    expect(await sendStatuses(direct.db, before)).toEqual({ [before[0]!]: 'sent', [before[1]!]: 'accepted', [before[2]!]: 'accepted' });
    // While nobody runs the session: a customer writes (WhatsApp queues it), and the other process accepts sends.
    await inject('written while nobody ran the session');
    const during = [await send(other, 'send 4 during the gap'), await send(other, 'send 5 during the gap')];

    const took = await nextOwner(direct.db, channelId, killedOwner, killedAt);
    const inboundAt = await eventually(async () => ((await recordedTexts(direct.db, 'inbound', ['written while nobody ran the session']))['written while nobody ran the session'] === 1 ? performance.now() - killedAt : undefined), 30_000);
    // A send the dead process had claimed is the new owner's at once, not when that claim lapses (30 s).
    await allSent([...before, ...during], 30_000);
    const sentAt = performance.now() - killedAt;
    console.info(`SIGKILL takeover: lease held elsewhere after ${Math.round(took.ms)} ms, queued message recorded after ${Math.round(inboundAt)} ms, every send sent after ${Math.round(sentAt)} ms`);
    expect(took.ms).toBeLessThan(30_000);
    expect(sentAt).toBeLessThan(20_000);

    const texts = ['send 1 before the kill', 'send 2 before the kill', 'send 3 before the kill', 'send 4 during the gap', 'send 5 during the gap'];
    expect(await recordedTexts(direct.db, 'outbound', texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    // WhatsApp holds one message per id: each send reached it under one id, whichever process sent it.
    await eventually(async () => (texts.every((t) => delivered.some((d) => d.text === t)) ? true : undefined));
    expect(deliveredOf(texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    // The send at WhatsApp but not recorded when the owner died is recorded by the new owner under the one id it has.
    const cutOff = await direct.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', before[1]!).executeTakeFirstOrThrow();
    expect(cutOff.messenger_message_id).toBe(whatsappMessageId(before[1]!));
    expect(delivered.find((d) => d.text === 'send 2 before the kill')!.id).toBe(cutOff.messenger_message_id);
    expect(await recordedTexts(direct.db, 'inbound', ['hello before anything happens', 'written while nobody ran the session'])).toEqual({
      'hello before anything happens': 1,
      'written while nobody ran the session': 1,
    });
  }, 90_000);

  it('is handed over at once by a process stopping on SIGTERM, without waiting for the lease', async () => {
    const holder = gateways[1]!;
    const next = await start();
    const heldBy = (await liveOwner(direct.db, channelId))!;
    const stopping = holder.stop();
    const stoppedAt = performance.now();
    const took = await nextOwner(direct.db, channelId, heldBy, stoppedAt);
    await stopping;
    console.info(`SIGTERM hand-over: lease held elsewhere after ${Math.round(took.ms)} ms`);
    // Let go, not lapsed: taken at once (the next process is told), well before the lease could have lapsed.
    expect(took.ms).toBeLessThan(LEASE_SECONDS * 1000);

    await inject('written after the hand-over');
    const answer = await send(next, 'send 6 after the hand-over');
    await allSent([answer], 20_000);
    await eventually(async () => ((await recordedTexts(direct.db, 'inbound', ['written after the hand-over']))['written after the hand-over'] === 1 ? true : undefined), 20_000);
    await eventually(async () => (delivered.some((d) => d.text === 'send 6 after the hand-over') ? true : undefined));
    expect(deliveredOf(['send 6 after the hand-over'])).toEqual({ 'send 6 after the hand-over': 1 });
    expect(await recordedTexts(direct.db, 'inbound', ['hello before anything happens', 'written while nobody ran the session'])).toEqual({
      'hello before anything happens': 1,
      'written while nobody ran the session': 1,
    });
  }, 90_000);
});
