import { eventually } from './eventually.ts';
import { startFaultRelay, type FaultRelay } from './fault-relay.ts';
import { startLiveGateway, type TestGateway } from './harness.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { startFaultServer, type FaultServer } from './whatsapp-fault-server.ts';
import { seedLinkedWhatsAppChannel } from './whatsapp-linked-channel.ts';
import type { Liveness } from '../transports/whatsapp/liveness.ts';

/** The customer of the rig's channel: they wrote first, so the gateway sends to them without asking WhatsApp. */
export const RIG_CUSTOMER = '15551234567';

/**
 * The gateway (in this process) running one personal WhatsApp channel with the real library against the fake server
 * that fails the way WhatsApp does, through a fault relay when asked: the channel linked, its session logged in, and
 * the customer's first message recorded.
 */
export interface WhatsAppFaultRig {
  server: FaultServer;
  /** Between the library and the server (`relay: true`), else null. */
  relay: FaultRelay | null;
  database: TestDatabase;
  t: TestGateway;
  /** The gateway's address (its PUBLIC_URL), for frames' realtime clients. */
  base: string;
  token: string;
  channelId: string;
  /** Sends a text to the customer; answers its request id. */
  send(text: string): Promise<string>;
  close(): Promise<void>;
}

/** `encrypted` (unless false): customers' messages come Signal-encrypted, as phones write them, not as the fake's plaintext. */
export async function startWhatsAppFaultRig(options: { secretKey: string; relay?: boolean; liveness?: Liveness; encrypted?: boolean }): Promise<WhatsAppFaultRig> {
  const server = await startFaultServer();
  const relay = options.relay ? await startFaultRelay({ host: '127.0.0.1', port: Number(new URL(server.wsUrl).port) }) : null;
  const database = await createTestDatabase();
  const wsUrl = relay ? relay.url(server.wsUrl) : server.wsUrl;
  const { t, base } = await startLiveGateway({ SECRET_KEY: options.secretKey, WHATSAPP_PERSONAL: 'on', WHATSAPP_WS_URL: wsUrl }, { database, ...(options.liveness ? { whatsapp: { liveness: options.liveness } } : {}) });
  const { token, accountId } = await t.newAccount();
  const channelId = crypto.randomUUID();
  const device = await seedLinkedWhatsAppChannel(t.gateway.database.db, { channelId, accountId, selfJid: server.server.manifest.selfJid, secretKey: options.secretKey });
  if (options.encrypted !== false) server.encryptInbound(device);
  await t.gateway.sessions!.tick();
  await eventually(async () => (server.logins() > 0 ? true : undefined), 20_000);
  await server.inject('hello from the phone');
  await eventually(async () => ((await t.gateway.database.db.selectFrom('messages').select('id').where('text', '=', 'hello from the phone').execute()).length > 0 ? true : undefined), 20_000);
  return {
    server,
    relay,
    database,
    t,
    base,
    token,
    channelId,
    async send(text) {
      const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: RIG_CUSTOMER }, text } });
      if (res.statusCode !== 201) throw new Error(`the send was answered ${res.statusCode}: ${res.body}`);
      return res.json().data.request_id as string;
    },
    async close() {
      await t.close();
      await relay?.close();
      await server.close();
      await database.drop();
    },
  };
}
