import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/ports.ts';
import { freePort } from './free-port.ts';
import { startTestGateway, type TestGateway } from './harness.ts';

export const PARTNER = { login: 'acme-partner', secret: 'a partner secret of some length' };

/** A gateway listening on a loopback port, with a partner Basic login from its environment. */
export async function startPartnerGateway(clock: Clock): Promise<{ t: TestGateway; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestGateway({
    clock,
    env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, PARTNER_LOGIN: PARTNER.login, PARTNER_SECRET: PARTNER.secret },
  });
  await t.gateway.listen();
  return { t, base };
}

export const basic = (login: string, secret: string) => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown> & { data?: Record<string, unknown> & { account?: Record<string, unknown> } };
  headers: Headers;
}

/** One JSON request over real HTTP. */
export async function api(base: string, method: string, path: string, authorization: string | null, body?: unknown): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** A PKCE pair (RFC 7636): a 43-character verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The hidden fields of the consent page's form, as a browser would send them back. */
export function hiddenFields(html: string): Record<string, string> {
  const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]));
}
