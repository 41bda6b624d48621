import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Parsed envelope. */
  json: { event: string; data: unknown[]; meta: { idempotency_key: string; timestamp: number } };
  /** What the receiver answered (null: it never answered). */
  status: number | null;
  receivedAt: number;
}

/** What to answer: a status with headers, or `hang` (no answer until `answerHanging` or the receiver closes). */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

/** How the receiver answers a request, given it and how many requests with the same webhook-id came before. */
export type Behaviour = (request: Omit<ReceivedRequest, 'status'>, previousWithSameId: number) => Answer;

/** A local webhook endpoint for tests: records every request and answers as told. */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight(): number;
  maxInFlight(): number;
  behave(behaviour: Behaviour): void;
  /** Answers every request left hanging so far with `status`. */
  answerHanging(status: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(behaviour: Behaviour = () => ({ status: 200 })): Promise<WebhookReceiver> {
  let current = behaviour;
  const requests: ReceivedRequest[] = [];
  const hanging = new Map<ServerResponse, ReceivedRequest>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const seen: Omit<ReceivedRequest, 'status'> = {
        path: req.url ?? '/',
        headers,
        body,
        json: JSON.parse(body) as ReceivedRequest['json'],
        receivedAt: Date.now(),
      };
      const previous = requests.filter((r) => r.headers['webhook-id'] === headers['webhook-id']).length;
      const answer = current(seen, previous);
      const record: ReceivedRequest = { ...seen, status: answer === 'hang' ? null : answer.status };
      requests.push(record);
      if (answer === 'hang') {
        hanging.set(res, record);
        return;
      }
      const send = () => res.writeHead(answer.status, answer.headers ?? {}).end();
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    behave: (b) => {
      current = b;
    },
    answerHanging(status) {
      for (const [res, record] of hanging) {
        record.status = status;
        if (!res.destroyed) res.writeHead(status).end();
      }
      hanging.clear();
    },
    async close() {
      for (const res of hanging.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A seeded source of numbers in [0, 1) (mulberry32), for jitter that tests can repeat. */
export { seededRandom } from '../core/pacing/random.ts';
