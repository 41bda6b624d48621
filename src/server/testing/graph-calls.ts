import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer as bodyBytes } from 'node:stream/consumers';

/**
 * What Meta's Graph API emulators (Instagram's, WhatsApp's) share: a call as they record it, an error as Meta
 * answers it (`{error: {message, type, code, error_subcode?, fbtrace_id}}`), the `appsecret_proof` a call must carry
 * (the HMAC-SHA256 of its token under the app secret), the reading of a versioned request, and the server that
 * reads, records and answers them.
 */

export interface GraphCall {
  token: string;
  method: string;
  /** Without the version, which is in `version`. */
  path: string;
  version: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
  /** The files of a form (multipart/form-data) by their fields; its other fields are in `body`. */
  files?: Record<string, { name: string; type: string; bytes: Buffer }>;
}

export interface GraphAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** An error as the Graph API answers it. */
export const graphError = (status: number, code: number, message: string, subcode?: number, headers?: Record<string, string>): GraphAnswer => ({
  status,
  body: { error: { message, type: code === 190 ? 'OAuthException' : 'GraphMethodException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEf' } },
  ...(headers ? { headers } : {}),
});

/** The `appsecret_proof` a call with `token` carries. */
export const appSecretProof = (appSecret: string, token: string): string => createHmac('sha256', appSecret).update(token).digest('hex');

/** A form's fields and files, as Meta reads an upload (`POST /{phone_number_id}/media`). */
async function formOf(raw: Buffer, contentType: string): Promise<Pick<GraphCall, 'body' | 'files'>> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  const body: Record<string, unknown> = {};
  const files: NonNullable<GraphCall['files']> = {};
  for (const [field, value] of form) {
    if (typeof value === 'string') body[field] = value;
    else files[field] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { body, files };
}

/** A request to `/<version>/<path>` as a call, with the proof it carried; null for any other address. */
export async function graphCallOf(req: IncomingMessage, raw: Buffer): Promise<{ call: GraphCall; proof: string | undefined } | null> {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const versioned = /^\/(v\d+\.\d+)(\/.*)$/.exec(url.pathname);
  if (!versioned) return null;
  const { appsecret_proof: proof, ...query } = Object.fromEntries(url.searchParams);
  const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  const type = String(req.headers['content-type'] ?? '');
  const content = type.startsWith('multipart/form-data') ? await formOf(raw, type) : { body: raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {} };
  return { call: { token, method: req.method ?? 'GET', path: versioned[2]!, version: versioned[1]!, query, ...content }, proof };
}

/**
 * A Graph API server on a loopback port of its own: each request read as a versioned call, recorded in `calls` and
 * answered by `answer` (404 for what is not a call). `other` may serve a request first (a media download): it answers
 * whether it did.
 */
export async function serveGraphCalls(
  calls: GraphCall[],
  answer: (call: GraphCall, proof: string | undefined) => GraphAnswer | Promise<GraphAnswer>,
  other?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void bodyBytes(req).then(async (raw) => {
      if (other?.(req, res)) return;
      const read = await graphCallOf(req, raw);
      if (!read) return void res.writeHead(404).end();
      calls.push(read.call);
      const result = await answer(read.call, read.proof);
      res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers }).end(JSON.stringify(result.body));
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
