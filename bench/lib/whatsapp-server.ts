/**
 * The fake WhatsApp server (@openclaw/crabline) in a process of its own, so that a benchmark's process holds only
 * the client side of each connection. Reports its WebSocket address and account over IPC; `stop` ends it.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhatsAppServer } from '@openclaw/crabline';

const server = await startWhatsAppServer({ host: '127.0.0.1', port: 0, recorderPath: join(tmpdir(), `whatsapp-server-${process.pid}.jsonl`) });
process.on('message', async (m: { type: string }) => {
  if (m.type !== 'stop') return;
  await server.close();
  process.exit(0);
});
process.send!({ url: server.manifest.endpoints.baileysWebSocketUrl, selfJid: server.manifest.selfJid });
