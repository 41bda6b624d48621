/**
 * The webhook receiver of the end-to-end benchmark, in a process of its own: answers every POST with 204 at
 * once and notes, per request id, when the first `message.status_update` with status `sent` arrived (epoch
 * milliseconds with sub-millisecond precision, comparable across processes of one machine). The parent asks
 * for the arrivals over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
let arrivals: Record<string, number> = {};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; data: { request_id?: string; status?: string }[] };
      if (body.event === 'message.status_update') {
        for (const item of body.data) if (item.status === 'sent' && item.request_id) arrivals[item.request_id] ??= at;
      }
    } catch {
      // not a webhook body: ignored
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}/hooks` });
});

process.on('message', (m: { type: 'arrivals' | 'reset' | 'stop' }) => {
  if (m.type === 'stop') server.close(() => process.exit(0));
  process.send?.({ arrivals });
  if (m.type === 'reset') arrivals = {};
});
