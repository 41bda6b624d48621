import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhatsAppServer, type StartedWhatsAppServer } from '@openclaw/crabline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled } from '../testing/messaging.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';
import { seedLinkedWhatsAppChannel } from '../testing/whatsapp-linked-channel.ts';

const SECRET_KEY = 'k'.repeat(40);

/**
 * The real library (Baileys 7) over a real WebSocket on loopback, against a fake WhatsApp server that completes
 * WhatsApp Web's Noise handshake with it. The server cannot issue a QR, so the session starts already linked: its
 * credentials are what the library makes for a new device, as the account the server knows.
 */
describe(`live personal WhatsApp through the real library (${databaseKind()})`, () => {
  let server: StartedWhatsAppServer;
  let database: TestDatabase;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  const channelId = crypto.randomUUID();
  const start = async () =>
    (await startLiveGateway({ SECRET_KEY, WHATSAPP_PERSONAL: 'on', WHATSAPP_WS_URL: server.manifest.endpoints.baileysWebSocketUrl }, { database })).t;
  const inject = (text: string) =>
    fetch(server.manifest.endpoints.adminInboundUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crabline-admin-token': server.manifest.adminToken },
      body: JSON.stringify({ chatJid: '15551234567@s.whatsapp.net', senderJid: '15551234567@s.whatsapp.net', text }),
    });
  const inbound = async (text: string) =>
    t.gateway.database.db.selectFrom('messages').select(['id', 'messenger_message_id']).where('text', '=', text).where('direction', '=', 'inbound').execute();

  beforeAll(async () => {
    // What the server records of its traffic goes to a temporary file, not into the checkout.
    server = await startWhatsAppServer({ host: '127.0.0.1', port: 0, recorderPath: join(tmpdir(), `whatsapp-server-${process.pid}.jsonl`) });
    database = await createTestDatabase();
    t = await start();
    ({ token, accountId } = await t.newAccount());
    // A channel linked to the server's account, as a scan would have left it: active, its session's credentials stored.
    await seedLinkedWhatsAppChannel(t.gateway.database.db, { channelId, accountId, selfJid: server.manifest.selfJid, secretKey: SECRET_KEY });
    await t.gateway.sessions!.tick();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await database?.drop();
  });

  it('records a customer’s text and sends the answer over WhatsApp Web’s protocol', async () => {
    const res = await eventually(async () => {
      const r = await inject('hello from the phone');
      return r.status === 200 ? r : undefined;
    });
    expect(res.status).toBe(200);
    const [recorded] = await eventually(async () => {
      const rows = await inbound('hello from the phone');
      return rows.length > 0 ? rows : undefined;
    });
    expect(recorded!.messenger_message_id).toMatch(/^wamid\./);

    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15551234567' }, text: 'hi back' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const requestId = sent.json().data.request_id as string;
    await settled(t, requestId, ['sent']);
    const stored = await t.gateway.database.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
    expect(stored.messenger_message_id).toBe(whatsappMessageId(requestId));
  });

  it.runIf(databaseKind() === 'postgres')('records once what WhatsApp queued while no gateway ran the session, after a restart', async () => {
    await t.close();
    // Nobody is connected: the server keeps the message for the next connection.
    expect((await inject('written while you were away')).status).toBe(200);
    t = await start();
    await t.gateway.sessions!.tick();
    const rows = await eventually(async () => {
      const found = await inbound('written while you were away');
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toHaveLength(1);
    expect(await inbound('hello from the phone')).toHaveLength(1);
  });
});
