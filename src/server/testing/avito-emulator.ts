import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { systemClock, type Clock } from '../core/ports.ts';
import { avitoAuthority, type Grant } from './avito-emulator-auth.ts';
import { serveFile } from './file-server.ts';
import { buffer as bodyBytes } from 'node:stream/consumers';

/**
 * A local stand-in for Avito's API (developers.avito.ru: "Авторизация", "Информация о пользователе", "Мессенджер") for
 * the live driver's tests, over real HTTP both ways: OAuth codes and rotating tokens under an injected clock, the
 * account's profile, webhook subscriptions, and the messenger (texts of up to 1000 characters, picture uploads and
 * picture messages), refusing as Avito does (`{error: {code, message}}` with the status) or as a test asks. It posts
 * notifications (version 3) to an account's subscriptions: a customer's message, and, as Avito reports the account's
 * own messages too, each send (after answering it, or before when a test asks), and a web server for the CRM's files.
 */

export interface AvitoAccount {
  id: number;
  name: string;
  phone?: string;
}

export interface AvitoCall {
  method: string;
  path: string;
  /** The bearer token it came with ('' for none). */
  token: string;
  body: Record<string, unknown>;
}

export interface AvitoEmulator {
  url: string;
  /** Every call of the API but `POST /token` (whose grants are in `grants`), in the order it came. */
  calls: AvitoCall[];
  grants: Grant[];
  uploads: { contentType: string; body: string }[];
  addAccount(account: AvitoAccount): void;
  /** A code the account gave the application on Avito's page (taken once). */
  issueCode(userId: number): string;
  /** The account withdraws the authorization: its tokens are refused with 401, its renewals with `invalid_grant`. */
  withdraw(userId: number): void;
  /** The account's access tokens expire now (refused with 403, as Avito documents), earlier than they were given for. */
  expire(userId: number): void;
  subscriptionsOf(userId: number): string[];
  /** The account's owner subscribes an address of their own (as through the API with their token). */
  addSubscription(userId: number, url: string): void;
  /** The account's addresses become these, as an earlier connection or its owner left them. */
  setSubscriptions(userId: number, urls: string[]): void;
  /** The customer closed the chat to the account: sends to it are refused with 403. */
  block(chatId: string): void;
  /** Avito reports the account's sends to its subscriptions after answering them (the default), before, or not at all. */
  echoSends(when: 'after' | 'before' | 'off'): void;
  /** How the gateway answered each report of a send, in order (posted again after a 5xx). */
  echoAnswers: number[];
  /** Makes the next calls of a route (`send`, `sendImage`, `upload`, `subscribe`, `token`…) fail: 429 asking to wait `retryAfter` s, or another status. */
  failNext(route: string, times: number, status?: number, retryAfter?: number): void;
  /** A customer (`authorId`) writes in a chat of the account: posted to its subscriptions; the last status. */
  customerWrites(userId: number, message: { chatId: string; authorId: number; id?: string; type?: string; content: Record<string, unknown> }): Promise<number>;
  /** Posts a notification as it is to the account's subscriptions (or to `url`); the last status. */
  notify(userId: number, body: unknown, url?: string): Promise<number>;
  /** Waits for the notifications the emulator posts by itself (the sends' reports). */
  settle(): Promise<void>;
  hostFile(name: string, content: Buffer, contentType: string): string;
  close(): Promise<void>;
}

const TEXT_LIMIT = 1000;


type Answer = { status: number; body: unknown; headers?: Record<string, string> };
const ok = (body: unknown): Answer => ({ status: 200, body });
const refuse = (status: number, message: string, headers?: Record<string, string>): Answer => ({ status, body: { error: { code: status, message } }, ...(headers ? { headers } : {}) });

export async function startAvitoEmulator(app: { clientId: string; clientSecret: string }, clock: Clock = systemClock): Promise<AvitoEmulator> {
  const auth = avitoAuthority(app, clock);
  const accounts = new Map<number, AvitoAccount>();
  const subscriptions = new Map<number, string[]>();
  /** Chats customers opened, by id: whose account's they are. */
  const chats = new Map<string, number>();
  const blocked = new Set<string>();
  const images = new Map<string, number>();
  const files = new Map<string, { content: Buffer; contentType: string }>();
  const failures = new Map<string, { times: number; status: number; retryAfter: number }>();
  const calls: AvitoCall[] = [];
  const uploads: { contentType: string; body: string }[] = [];
  const posting = new Set<Promise<unknown>>();
  const echoAnswers: number[] = [];
  let echo: 'after' | 'before' | 'off' = 'after';
  let next = 1;
  let base = '';

  const seconds = () => Math.floor(clock.now().getTime() / 1000);
  const imageSizes = (id: string) => ({ '1280x960': `${base}/img/1280x960/${id}.jpg`, '140x105': `${base}/img/140x105/${id}.jpg` });

  async function notify(userId: number, body: unknown, url?: string): Promise<number> {
    const targets = url ? [url] : (subscriptions.get(userId) ?? []);
    if (targets.length === 0) throw new Error(`account ${userId} has no subscription`);
    let status = 0;
    for (const target of targets) {
      const res = await request(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.body.dump();
      status = res.statusCode;
    }
    return status;
  }
  const envelope = (value: Record<string, unknown>) => ({ id: `wh-${next++}`, version: 'v3.0.0', timestamp: seconds(), payload: { type: 'message', value } });
  const reported = (userId: number, chatId: string, authorId: number, message: { id: string; type: string; content: unknown }) =>
    envelope({ ...message, chat_id: chatId, user_id: userId, author_id: authorId, created: seconds(), chat_type: 'u2i', item_id: 1768287444, published_at: clock.now().toISOString() });

  const track = (work: Promise<unknown>) => {
    posting.add(work);
    void work.finally(() => posting.delete(work));
  };

  /**
   * A send's report to the account's subscriptions: awaited before answering, or posted after, as the test asked. A
   * report the gateway does not take (a 5xx: the send is still under way there) is posted again, as a platform posts
   * a notification that failed, a few times, each once the one before was answered.
   */
  async function report(userId: number, chatId: string, message: { id: string; type: string; content: unknown }): Promise<void> {
    if (echo === 'off' || (subscriptions.get(userId) ?? []).length === 0) return;
    const body = reported(userId, chatId, userId, message);
    const post = async () => {
      const status = await notify(userId, body).catch(() => 0);
      echoAnswers.push(status);
      return status;
    };
    if (echo === 'after') return track(post());
    if ((await post()) < 500) return;
    track(
      (async () => {
        for (let tries = 1; tries < 20; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          if ((await post()) < 500) return;
        }
      })(),
    );
  }

  async function answer(method: string, path: string, authorization: string | undefined, body: Record<string, unknown>, raw: Buffer, contentType: string): Promise<Answer> {
    const route = routeOf(method, path);
    const failing = failures.get(route);
    if (failing && failing.times > 0) {
      failing.times--;
      return refuse(failing.status, failing.status === 429 ? 'Too many requests' : 'Internal error', failing.status === 429 ? { 'retry-after': String(failing.retryAfter) } : undefined);
    }
    if (route === 'token') return auth.token(new URLSearchParams(raw.toString('utf8')));
    const holder = auth.holder(authorization);
    if ('status' in holder) return refuse(holder.status, holder.status === 401 ? 'Unauthorized' : 'Forbidden');
    const account = accounts.get(holder.userId)!;
    const mine = subscriptions.get(account.id) ?? [];
    const inPath = /^\/messenger\/v1\/accounts\/(\d+)\/(?:chats\/([^/]+)\/)?/.exec(path);
    if (inPath && Number(inPath[1]) !== account.id) return refuse(403, 'Forbidden');
    const chatId = inPath?.[2] ? decodeURIComponent(inPath[2]) : null;
    if (chatId !== null && chats.get(chatId) !== account.id) return refuse(404, 'Chat not found');
    if (chatId !== null && blocked.has(chatId)) return refuse(403, 'Chat is not available');
    switch (route) {
      case 'self':
        return ok({ id: account.id, name: account.name, email: `${account.id}@example.com`, phone: account.phone, profile_url: `https://avito.ru/user/${account.id}/profile` });
      case 'subscribe':
        if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) return refuse(400, 'Validation error');
        subscriptions.set(account.id, [...mine.filter((u) => u !== body.url), body.url]);
        return ok({ ok: true });
      case 'subscriptions':
        return ok({ subscriptions: mine.map((url) => ({ url, version: '3' })) });
      case 'unsubscribe':
        subscriptions.set(account.id, mine.filter((u) => u !== body.url));
        return ok({ ok: true });
      case 'send': {
        const text = (body.message as { text?: unknown } | undefined)?.text;
        if (body.type !== 'text' || typeof text !== 'string' || text.length === 0) return refuse(400, 'Bad Request');
        if ([...text].length > TEXT_LIMIT) return refuse(400, 'Validation error: message.text must be at most 1000 characters long');
        const message = { id: `msg-${next++}`, type: 'text', content: { text } };
        await report(account.id, chatId!, message);
        return ok({ ...message, created: seconds(), direction: 'out' });
      }
      case 'upload': {
        const form = raw.toString('latin1');
        if (!contentType.startsWith('multipart/form-data') || !form.includes('name="uploadfile[]"')) return refuse(400, 'Bad Request');
        uploads.push({ contentType, body: form });
        const id = `${account.id}.img${next++}`;
        images.set(id, account.id);
        return ok({ [id]: imageSizes(id) });
      }
      case 'sendImage': {
        if (typeof body.image_id !== 'string' || images.get(body.image_id) !== account.id) return refuse(400, 'Validation error: image_id');
        const message = { id: `msg-${next++}`, type: 'image', content: { image: { sizes: imageSizes(body.image_id) } } };
        await report(account.id, chatId!, message);
        return ok({ ...message, author_id: account.id, created: seconds(), direction: 'out' });
      }
      default:
        return refuse(404, `No method ${method} ${path}`);
    }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const file = files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      return file ? serveFile(req, res, file, false) : void res.writeHead(404).end();
    }
    void bodyBytes(req)
      .then(async (raw) => {
        const contentType = String(req.headers['content-type'] ?? '');
        let body: Record<string, unknown> = {};
        if (contentType.startsWith('application/json') && raw.length > 0) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        if (url.pathname !== '/token') calls.push({ method: req.method ?? 'GET', path: url.pathname, token, body });
        const result = await answer(req.method ?? 'GET', url.pathname, req.headers.authorization, body, raw, contentType);
        res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers }).end(JSON.stringify(result.body));
      })
      .catch(() => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 400, message: 'Bad Request' } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    calls,
    grants: auth.grants,
    uploads,
    addAccount: (account) => void accounts.set(account.id, account),
    issueCode: (userId) => auth.issueCode(userId),
    withdraw: (userId) => auth.withdraw(userId),
    expire: (userId) => auth.expire(userId),
    subscriptionsOf: (userId) => [...(subscriptions.get(userId) ?? [])],
    addSubscription: (userId, url) => void subscriptions.set(userId, [...(subscriptions.get(userId) ?? []), url]),
    setSubscriptions: (userId, urls) => void subscriptions.set(userId, [...urls]),
    block: (chatId) => void blocked.add(chatId),
    echoSends: (when) => void (echo = when),
    failNext: (route, times, status = 500, retryAfter = 1) => void failures.set(route, { times, status, retryAfter }),
    async customerWrites(userId, { chatId, authorId, id, type = 'text', content }) {
      chats.set(chatId, userId);
      return notify(userId, reported(userId, chatId, authorId, { id: id ?? `msg-${next++}`, type, content }));
    },
    notify,
    echoAnswers,
    async settle() {
      while (posting.size > 0) await Promise.all([...posting]);
    },
    hostFile(name, content, contentType) {
      files.set(name, { content, contentType });
      return `${base}/files/${encodeURIComponent(name)}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The route a call is for, by method and path, as `failNext` names it. */
function routeOf(method: string, path: string): string {
  if (method === 'POST' && path === '/token') return 'token';
  if (method === 'GET' && path === '/core/v1/accounts/self') return 'self';
  if (method === 'POST' && path === '/messenger/v3/webhook') return 'subscribe';
  if (method === 'POST' && path === '/messenger/v1/subscriptions') return 'subscriptions';
  if (method === 'POST' && path === '/messenger/v1/webhook/unsubscribe') return 'unsubscribe';
  if (method === 'POST' && /^\/messenger\/v1\/accounts\/\d+\/uploadImages$/.test(path)) return 'upload';
  if (method === 'POST' && /^\/messenger\/v1\/accounts\/\d+\/chats\/[^/]+\/messages\/image$/.test(path)) return 'sendImage';
  if (method === 'POST' && /^\/messenger\/v1\/accounts\/\d+\/chats\/[^/]+\/messages$/.test(path)) return 'send';
  return `${method} ${path}`;
}
