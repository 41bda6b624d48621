import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** A call to the gateway's API with the account's token; fails the test unless it succeeds. Returns `data`. */
export async function api<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, data?: unknown): Promise<T> {
  const res = await request.fetch(url, { method, headers: { authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return ((await res.json()) as { data: T }).data;
}

export interface CrmPage {
  /** `http://127.0.0.1:<port>`: an origin other than the gateway's, as a CRM's would be. */
  origin: string;
  /** The frame link the page embeds from now on (every path of the origin serves the same page). */
  embed(url: string): void;
  close(): Promise<void>;
}

/**
 * The CRM page that embeds a frame, on an origin of its own: `page(url)` is its HTML for the link set last
 * (a loopback page may frame a loopback one, so the gateway only needs the origin allowed).
 */
export async function startCrmPage(page: (frameUrl: string) => string): Promise<CrmPage> {
  let frameUrl = '';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(frameUrl));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    embed: (url) => void (frameUrl = url),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A CRM deal page with the chat frame in a box of its own, as chat.spec.ts and chat-templates.spec.ts use it. */
export const dealPage = (frameUrl: string) =>
  `<!doctype html><title>CRM</title>
   <body style="margin:0;font-family:sans-serif">
     <header style="padding:8px 16px;background:#243b53;color:#fff">Deal #7 · Acme</header>
     <iframe id="widget" title="Chats" src="${frameUrl}" style="width:900px;height:560px;border:1px solid #ccc;margin:16px"></iframe>
   </body>`;

/**
 * A CRM page whose frame fills the window and which records every message the frame posts (`window.received`), for
 * the workspace journeys that check the bridge.
 */
export const recordingPage = (frameUrl: string) =>
  `<!doctype html><html lang="en"><title>CRM</title>
   <script>window.received = []; addEventListener('message', (e) => window.received.push(e.data));</script>
   <body style="margin:0"><main><iframe id="widget" title="Chats" src="${frameUrl}" style="display:block;width:100vw;height:100vh;border:0"></iframe></main></body></html>`;

/** A personal WhatsApp account of the sandbox, scanned and active: it may write first. */
export async function whatsappChannel(request: APIRequestContext, token: string): Promise<string> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'whatsapp', credentials: {} });
  await api(request, token, 'POST', `/v2/sandbox/channels/${created!.channel_id}/scan`, {});
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

/** A sandbox WhatsApp customer (by number) writes to the channel. */
export const whatsappCustomerWrites = (request: APIRequestContext, token: string, channelId: string, chatId: string, name: string, text: string) =>
  api<{ message_id: string }>(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: chatId, name, text });

/** A CRM page that is the frame alone, filling the window. */
export const frameOnlyPage = (frameUrl: string): string => `<!doctype html><html lang="en"><title>CRM</title>
       <body style="margin:0"><main><iframe id="widget" title="Chats" src="${frameUrl}" style="display:block;width:100vw;height:100vh;border:0"></iframe></main></body></html>`;

/**
 * The CRM page of a spec file (the frame alone, filling the window), started before its tests and closed after them,
 * with the directory its screenshots go to made.
 */
export function frameOnlyCrmForFile(shots: string): CrmPage {
  let started: CrmPage | null = null;
  const page = (): CrmPage => {
    if (!started) throw new Error('the CRM page is started before the tests');
    return started;
  };
  test.beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    started = await startCrmPage(frameOnlyPage);
  });
  test.afterAll(async () => {
    await started?.close();
  });
  return {
    get origin() {
      return page().origin;
    },
    embed: (url) => page().embed(url),
    close: () => page().close(),
  };
}
