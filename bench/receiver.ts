/**
 * The load receiver of the webhook benchmark, in a process of its own so that its work does not share an
 * event loop with what is measured. Answers every POST with 204 at once and counts requests and the
 * events in them; the parent asks for the counts over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let requests = 0;
let events = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests++;
    try {
      events += (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: unknown[] }).data.length;
    } catch {
      events++;
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}/hooks` });
});

process.on('message', (m: { type: 'counts' | 'reset' | 'stop' }) => {
  if (m.type === 'reset') {
    requests = 0;
    events = 0;
  }
  if (m.type === 'stop') server.close(() => process.exit(0));
  process.send?.({ requests, events });
});
