/**
 * The load receiver of the webhook benchmark, in a process of its own so that its work does not share an
 * event loop with what is measured. Answers every POST with 204 at once and counts requests and the
 * events in them; the parent asks for the counts over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let requests = 0;
let events = 0;
/** For events that carry `recorded_at` (ms since the epoch): how long after it each arrived. */
let latencies: number[] = [];

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests++;
    try {
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { recorded_at?: number }[] };
      events += data.length;
      for (const item of data) if (typeof item.recorded_at === 'number') latencies.push(Date.now() - item.recorded_at);
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

process.on('message', (m: { type: 'counts' | 'reset' | 'stop' | 'latencies' }) => {
  if (m.type === 'latencies') return process.send?.({ latencies });
  if (m.type === 'reset') {
    requests = 0;
    events = 0;
    latencies = [];
  }
  if (m.type === 'stop') server.close(() => process.exit(0));
  process.send?.({ requests, events });
});
