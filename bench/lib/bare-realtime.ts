/**
 * The realtime baseline: a bare node:http server with socket.io on the same path options as the gateway,
 * which answers `POST /inbound` with 201 and pushes one event to every connected client: the least any
 * "HTTP in, socket out" service does, with no database. Runs in its own process; reports its URL over IPC.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/inbound') return void res.writeHead(404).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
    const messageId = randomUUID();
    io.emit('event', { id: randomUUID(), name: 'message.add', payload: { message_id: messageId, text: body.text } });
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { message_id: messageId } }));
  });
});
const io = new Server(server, { path: '/bff/socket.io', transports: ['websocket'] });

server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (m: { type: 'rss' | 'gc' | 'stop' }) => {
  if (m.type === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  // With --expose-gc: a full collection before memory is read.
  if (m.type === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({});
  }
  if (m.type === 'stop') {
    void io.close();
    server.close(() => process.exit(0));
  }
});
