import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { V3WebhookBody } from '../../contract/v3/webhooks.ts';

/** One POST a v3 address received, with what the schema of the v3 bodies said of it. */
export interface V3Received {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Schema errors of the body; empty when it is a valid v3 body. */
  invalid: string[];
  status: number;
}

export type V3Answer = { status: number; body?: unknown };

export interface V3WebhookReceiver {
  url: string;
  received: V3Received[];
  /** Bodies of one type (`messages`, `statuses`, `createContact`, ...), in the order they came. */
  of<T = unknown>(type: string): T[];
  answer(how: (body: Record<string, unknown>) => V3Answer): void;
  close(): Promise<void>;
}

const validate = new Ajv({ strict: false, allErrors: true }).compile(V3WebhookBody);

/**
 * A CRM's v3 webhook endpoint on loopback: records every POST and checks its body against the v3 body schema
 * (written from the public API's documentation, `contract/v3/webhooks.ts`), answering 200 unless told otherwise;
 * an answer may carry a JSON body (the entity a create request asks for).
 */
export async function startV3WebhookReceiver(): Promise<V3WebhookReceiver> {
  const received: V3Received[] = [];
  let how: (body: Record<string, unknown>) => V3Answer = () => ({ status: 200 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      let invalid: string[] = [];
      try {
        body = JSON.parse(text) as Record<string, unknown>;
        invalid = validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
      } catch {
        invalid = ['not JSON'];
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const answer = how(body);
      received.push({ path: req.url ?? '/', headers, body, invalid, status: answer.status });
      if (answer.body === undefined) res.writeHead(answer.status).end();
      else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/wazzup/hooks?secret=s1`,
    received,
    of: <T>(type: string) => received.filter((r) => type in r.body).flatMap((r) => (Array.isArray(r.body[type]) ? (r.body[type] as T[]) : [r.body[type] as T])),
    answer(next) {
      how = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
