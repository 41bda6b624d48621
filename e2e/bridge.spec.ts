import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { bridgeProtocol } from '../src/contract/bridge.ts';
import { api } from './crm-page.ts';
import { expect, test } from './fixtures.ts';

/**
 * The CRM page, a page of an origin the account did not allow, and a foreign page each live on an origin of
 * their own: small local servers on other ports than the gateway's (a loopback page may frame a loopback one).
 */
let HOST = '';
let NOT_ALLOWED_HOST = '';
let FOREIGN = '';
const pages = new Map<string, string>();
const servers: Server[] = [];

async function serve(): Promise<string> {
  const server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const body = pages.get(`${origin}${req.url ?? '/'}`);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'not found');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  [HOST, NOT_ALLOWED_HOST, FOREIGN] = [await serve(), await serve(), await serve()];
});
test.afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

interface Received {
  origin: string;
  data: { protocol?: string; type?: string; payload?: Record<string, unknown> };
}

async function chatLink(request: APIRequestContext, token: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const origins = await request.put('/v2/embedding/origins', { headers: auth, data: { origins: [HOST] } });
  expect(origins.status()).toBe(200);
  const link = await request.post('/v2/iframe-links/chats', {
    headers: auth,
    data: { user: { id: 'agent-1', name: 'Ann' }, scope: 'card', chats: [{ chat_type: 'telegram', chat_id: '42' }] },
  });
  expect(link.status()).toBe(201);
  return ((await link.json()) as { data: { url: string } }).data.url;
}

/** A host page that records every message it receives, with the widget and a foreign page in frames. */
function serveHost(origin: string, widgetUrl: string): void {
  pages.set(
    `${origin}/deal/7`,
    `<!doctype html><title>CRM</title>
      <script>window.received = []; addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));</script>
      <iframe id="widget" src="${widgetUrl}" width="600" height="400"></iframe>
      <iframe id="foreign" src="${FOREIGN}/frame" width="100" height="100"></iframe>`,
  );
  pages.set(
    `${FOREIGN}/frame`,
    `<!doctype html><title>foreign</title><script>window.received = []; addEventListener('message', (e) => window.received.push(e.data));</script>`,
  );
}

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Received[] }).received);

test.describe('host bridge', () => {
  test('talks to its host by exact origin and ignores a foreign page', async ({ page, request, token, baseURL }) => {
    const widgetOrigin = new URL(baseURL!).origin;
    serveHost(HOST, await chatLink(request, token));
    await page.goto(`${HOST}/deal/7`);

    // The frame says it is ready, from the gateway's origin, in the typed protocol.
    await expect.poll(async () => (await received(page)).find((m) => m.data.type === 'ready')).toEqual({
      origin: widgetOrigin,
      data: { protocol: bridgeProtocol, type: 'ready', payload: { kind: 'chats', user_id: 'agent-1' } },
    });

    // A foreign page asks the widget to open the chat; then the host does.
    const foreign = page.frame({ url: `${FOREIGN}/frame` })!;
    await foreign.evaluate((protocol) => {
      window.parent.frames[0]!.postMessage({ protocol, type: 'open_chat', payload: { channel_id: 'from-foreign', chat_type: 'telegram', chat_id: '42' } }, '*');
    }, bridgeProtocol);
    await page.evaluate(
      ({ protocol, target }) => {
        const frame = document.querySelector<HTMLIFrameElement>('#widget')!.contentWindow!;
        frame.postMessage({ protocol, type: 'open_chat', payload: { channel_id: 'from-host', chat_type: 'telegram', chat_id: '42' } }, target);
      },
      { protocol: bridgeProtocol, target: widgetOrigin },
    );

    await expect.poll(async () => (await received(page)).filter((m) => m.data.type === 'chat_opened')).toHaveLength(1);
    const opened = (await received(page)).filter((m) => m.data.type === 'chat_opened');
    expect(opened[0]).toEqual({
      origin: widgetOrigin,
      data: { protocol: bridgeProtocol, type: 'chat_opened', payload: { channel_id: 'from-host', chat_type: 'telegram', chat_id: '42' } },
    });
    // Nothing the widget says reaches the foreign page.
    expect(await foreign.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
    // The frame keeps its link (good for one session only): reloaded, it finds the session the link was traded for.
    const widget = page.frame({ url: (u) => u.pathname === '/embed/chats' })!;
    expect(new URL(widget.url()).searchParams.has('link')).toBe(true);
  });

  test('takes the host\'s set_options while open: the theme and language change in place', async ({ page, request, token, baseURL }) => {
    const widgetOrigin = new URL(baseURL!).origin;
    serveHost(HOST, await chatLink(request, token));
    await page.goto(`${HOST}/deal/7`);
    await expect.poll(async () => (await received(page)).some((m) => m.data.type === 'ready')).toBe(true);
    const root = page.frameLocator('#widget').locator('.gw-theme');
    await expect(root).toHaveAttribute('data-theme', 'auto');
    const search = (name: string) => page.frameLocator('#widget').getByRole('searchbox', { name, includeHidden: true });
    await expect(search('Search chats')).toBeAttached();
    await page.evaluate(
      ({ protocol, target }) => {
        const frame = document.querySelector<HTMLIFrameElement>('#widget')!.contentWindow!;
        frame.postMessage({ protocol, type: 'set_options', payload: { theme: 'dark', lang: 'ru' } }, target);
      },
      { protocol: bridgeProtocol, target: widgetOrigin },
    );
    await expect(root).toHaveAttribute('data-theme', 'dark');
    await expect(root).toHaveAttribute('lang', 'ru');
    await expect(search('Поиск чатов')).toBeAttached();
  });

  // POST /v3/iframe with options.useDealsEvents: the frame tells a v3 CRM, in the original service's words, that the
  // agent asked for a deal ("+") and opened one. With useDealsEvents false it says neither.
  test('posts WZ_OPEN_ENTITY and WZ_CREATE_ENTITY to a v3 host that asked for deal events, and nothing when it did not', async ({ page, request, token, baseURL }) => {
    test.setTimeout(120_000);
    const widgetOrigin = new URL(baseURL!).origin;
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [HOST] });
    const [channel] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}` } });
    const channelId = channel!.channel_id;
    await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username: 'bob', name: 'Bob Stone', text: 'Is the order shipped?' });
    await api(request, token, 'POST', '/v2/contacts', { contacts: [{ id: 'c-1', name: 'Bob Stone', contact_data: [{ chat_type: 'telegram', username: 'bob' }] }] });
    // The deal's page is on the CRM's (loopback) origin: opening it stays on this machine.
    await api(request, token, 'POST', '/v2/deals', { deals: [{ id: 'd-1', name: 'Order 1001', contacts: ['c-1'], uri: `${HOST}/deals/d-1` }] });

    const v3Link = async (useDealsEvents: boolean) => {
      const res = await request.post('/v3/iframe', {
        headers: { authorization: `Bearer ${token}` },
        data: { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', options: { clientType: 'crm', useDealsEvents } },
      });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { url: string }).url;
    };
    const openBob = async (useDealsEvents: boolean) => {
      serveHost(HOST, await v3Link(useDealsEvents));
      await page.goto(`${HOST}/deal/7`);
      const frame = page.frameLocator('#widget');
      await frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Is the order shipped?' }).getByRole('button').first().click();
      const panel = frame.getByRole('region', { name: 'Contact in the CRM' });
      const deal = panel.getByRole('link', { name: /Order 1001/ });
      await expect(deal).toBeVisible();
      const opened = page.waitForEvent('popup');
      await deal.click();
      await (await opened).close();
      await panel.getByRole('button', { name: 'Create deal' }).click();
      await expect(panel.getByRole('status').filter({ hasText: /asked/i })).toBeVisible();
    };
    const wz = async () => (await received(page)).filter((m) => String(m.data.type).startsWith('WZ_'));

    await openBob(true);
    const chat = { chatType: 'telegram', channelId, userId: 'agent-1' };
    await expect.poll(async () => (await wz()).map((m) => m.data.type)).toEqual(['WZ_OPEN_ENTITY', 'WZ_CREATE_ENTITY']);
    const [open, create] = (await wz()) as unknown as { origin: string; data: { type: string; data: Record<string, unknown> } }[];
    expect(open).toEqual({
      origin: widgetOrigin,
      data: { type: 'WZ_OPEN_ENTITY', data: { ...chat, chatId: expect.any(String), entity: { id: 'd-1', name: 'Order 1001', link: `${HOST}/deals/d-1`, closed: false } } },
    });
    expect(create).toEqual({ origin: widgetOrigin, data: { type: 'WZ_CREATE_ENTITY', data: { ...chat, chatId: open!.data.data.chatId } } });

    await openBob(false);
    expect(await wz()).toEqual([]);
  });

  test('is not rendered inside a page of an origin the account did not allow', async ({ page, request, token }) => {
    serveHost(NOT_ALLOWED_HOST, await chatLink(request, token));
    const blocked = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
    await page.goto(`${NOT_ALLOWED_HOST}/deal/7`);
    // The browser enforces the account's origins (only HOST is allowed) and refuses to render the frame.
    expect((await blocked).text()).toContain(`frame-ancestors ${HOST}`);
    expect(await received(page)).toEqual([]);
  });
});

test.describe('a frame before its session', () => {
  test.use({ locale: 'ru-RU' });

  test('speaks the browser’s language: a used link says so in Russian', async ({ page, request, token }) => {
    const url = await chatLink(request, token);
    const link = new URL(url).searchParams.get('link')!;
    expect((await request.post('/bff/session', { data: { link } })).status()).toBe(201);
    await page.goto(url);
    await expect(page.getByRole('alert')).toHaveText('Ссылка устарела или уже была использована. Обновите страницу, чтобы получить новую.');
  });
});
