/**
 * Memory per idle personal Telegram session: N mtcute clients as the gateway makes them (the library loaded once),
 * each with its TCP connection open to a loopback server standing in for Telegram's data centre, which takes the
 * connection and never answers (no traffic leaves the machine). What an idle session costs: the client, its memory
 * storage, its update state and its socket; the library's schema is shared by all and counted once, apart.
 *
 *   npx node --expose-gc bench/tgapi-sessions.ts [sessions=50]
 *
 * Goal: at most 30 MB per idle session.
 */
import { createServer, type Socket } from 'node:net';
import { mtcuteClients } from '../src/server/transports/tgapi/mtcute-client.ts';
import { mb, settledMemory } from './lib/memory.ts';

const count = Number(process.argv[2] ?? 50);
const settle = () => settledMemory(200);

const sockets: Socket[] = [];
const dc = createServer((socket) => void sockets.push(socket.on('error', () => {})));
await new Promise<void>((resolve) => dc.listen(0, '127.0.0.1', resolve));
const port = (dc.address() as { port: number }).port;
const clients = mtcuteClients({ apiId: 1, apiHash: '0'.repeat(32), dc: { host: '127.0.0.1', port } });

// The library and its schema, loaded by a first client that is then let go.
const first = await clients();
first.client.connect().catch(() => {});
await new Promise((resolve) => setTimeout(resolve, 300));
await first.client.destroy().catch(() => {});
const before = await settle();

const opened = [];
for (let i = 0; i < count; i++) {
  const { client } = await clients();
  client.connect().catch(() => {});
  opened.push(client);
}
await new Promise((resolve) => setTimeout(resolve, 1_000));
const after = await settle();
const perSession = { rssMb: mb((after.rss - before.rss) / count), heapMb: mb((after.heapUsed - before.heapUsed) / count) };
console.log(JSON.stringify({ sessions: count, connections: sockets.length, baselineRssMb: mb(before.rss), perSession, goalMb: 30, ok: perSession.rssMb <= 30 }));
await Promise.all(opened.map((c) => c.destroy().catch(() => {})));
for (const s of sockets) s.destroy();
dc.close();
