import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { serveFile } from './file-server.ts';
import { keptAttachment } from './max-emulator-attachments.ts';
import { buffer as bodyBytes } from 'node:stream/consumers';
import { warmMax } from './schema-check/warm.ts';
import { schemaChecks, type SchemaChecks } from './schema-check/schema-checks.ts';
import { maxAnswer, maxRequest, maxUpdate } from './schema-check/max-schema.ts';

/**
 * A local stand-in for the MAX Bot API (https://dev.max.ru/docs-api), for the live driver's tests: the methods the
 * gateway calls, answered as MAX answers them (JSON, `{code, message}` with an HTTP status when refused), its upload
 * server, a web server for the files customers' messages name, and a way to post an update to a bot's subscriptions
 * as MAX would (to each that asked for its type), with the subscription's secret in `X-Max-Bot-Api-Secret`: a
 * customer's message, an edit of it, a press of a button on a message the bot sent (answered once, by its id). The
 * videos customers sent are told by `GET /videos/{token}` (their MP4 at the emulator's `/cdn/<token>.mp4`). Its web
 * server and CDN take a single `Range`, as MAX's do.
 */

export interface EmulatedBot {
  user_id: number;
  first_name: string;
  username: string;
}

export interface MaxCall {
  token: string;
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface Subscription {
  url: string;
  secret: string | undefined;
  update_types: string[];
}

/** What reached the upload server: the multipart body as text, its upload type. */
export interface Upload {
  type: string;
  contentType: string;
  body: string;
}

export interface MaxEmulator {
  url: string;
  /** Every call of the Bot API in the order it came (uploads to the upload server are in `uploads`). */
  calls: MaxCall[];
  uploads: Upload[];
  addBot(token: string, bot: EmulatedBot): void;
  /** The subscriptions a bot's token holds now. */
  subscriptionsOf(token: string): Subscription[];
  /** The bot's token is revoked on the platform: every call with it is refused with 401. */
  revoke(token: string): void;
  /** A customer (user id) or group (chat id) wrote to the bot: it may send there from now on. */
  wroteTo(id: number): void;
  /** A customer who stopped the bot: sends to them are refused with 403 `chat.denied`. */
  block(userId: number): void;
  /** A file at an address of the emulator's web server, as a customer's or a CRM's file would be. */
  hostFile(name: string, content: Buffer, contentType: string): string;
  /** A video a customer sent, by its token: `GET /videos/{token}` gives its 720p MP4, served at `/cdn/<token>.mp4`. */
  addVideo(videoToken: string, content: Buffer): void;
  /** Every download from the web server and CDN, in the order it came, with the `Range` it asked for. */
  downloads: { path: string; range: string | undefined }[];
  /** From now on the web server and CDN ignore `Range` (or, given false, take it again): every download is all of the file, 200. */
  ignoreRanges(ignore?: boolean): void;
  /** The next sends with a file answer `attachment.not.ready` (MAX is still processing the upload). */
  notReadyFor(times: number): void;
  /** Makes the next calls of `METHOD /path` fail: 429 asking to wait `retryAfter` s, or another status. */
  failNext(route: string, times: number, status?: number, retryAfter?: number): void;
  /**
   * Posts an update to every subscription of the bot that asked for its type (all of them for a subscription that
   * named none), with its secret (or another one); the gateway's status code. Throws when none asked for it.
   */
  deliver(token: string, update: unknown, secret?: string | null): Promise<number>;
  /** A customer changed a message of theirs: `message_edited`, the message as it is now (the same shape as a new one). */
  customerEdits(token: string, message: Record<string, unknown>): Promise<number>;
  /**
   * `user` pressed the callback button with `payload` on the message `mid` the bot sent: `message_callback` with the
   * message as MAX keeps it (its keyboard included), or null once it is gone (a mid the bot never sent). Gives the
   * press's callback id, which `POST /answers` answers, and the update (to post it again as MAX would).
   */
  pressButton(token: string, mid: string, payload: string, user: Record<string, unknown>): Promise<{ status: number; callbackId: string; update: Record<string, unknown> }>;
  /** A press of one of the bot's buttons MAX knows of, not posted anywhere: its callback id, which `POST /answers` answers once. */
  issueCallback(token: string): string;
  /** The calls, answers and updates checked against MAX's official client's types (schemas/max.json); `close()` throws the mismatches. */
  schema: SchemaChecks;
  close(): Promise<void>;
}

const TEXT_LIMIT = 4000;


export async function startMaxEmulator(): Promise<MaxEmulator> {
  const bots = new Map<string, EmulatedBot>();
  const subscriptions = new Map<string, Subscription[]>();
  const blocked = new Set<number>();
  /** Users who wrote to a bot (bots cannot write first), and the group chats it is in. */
  const dialogs = new Set<number>();
  const files = new Map<string, { content: Buffer; contentType: string }>();
  const videos = new Map<string, Buffer>();
  const downloads: { path: string; range: string | undefined }[] = [];
  let rangesIgnored = false;
  const failures = new Map<string, { times: number; status: number; retryAfter: number }>();
  const calls: MaxCall[] = [];
  const uploads: Upload[] = [];
  const pendingUploads = new Map<string, string>();
  /** The presses MAX made, by callback id: whose bot's they are, and whether they were answered. */
  const presses = new Map<string, { token: string; answered: boolean }>();
  /** The messages bots sent, as MAX keeps them (a press brings its message along), by mid. */
  const sentMessages = new Map<string, Record<string, unknown>>();
  let notReady = 0;
  const schema = schemaChecks('MAX');
  warmMax();
  let next = 1;
  let base = '';

  type Answer = { status: number; body: unknown; headers?: Record<string, string> };
  const ok = (body: unknown): Answer => ({ status: 200, body });
  const refuse = (status: number, code: string, message: string, headers?: Record<string, string>): Answer => ({ status, body: { code, message }, ...(headers ? { headers } : {}) });

  function answer(token: string, method: string, path: string, query: Record<string, string>, body: Record<string, unknown>): Answer {
    const bot = bots.get(token);
    if (!bot) return refuse(401, 'verify.token', 'Invalid access_token');
    const failing = failures.get(`${method} ${path}`);
    if (failing && failing.times > 0) {
      failing.times--;
      return failing.status === 429
        ? refuse(429, 'too.many.requests', 'Too many requests', { 'retry-after': String(failing.retryAfter) })
        : refuse(failing.status, 'internal.error', 'Internal error');
    }
    const mine = subscriptions.get(token) ?? [];
    const video = method === 'GET' ? /^\/videos\/([\w-]+)$/.exec(path) : null;
    if (video) {
      // As MAX answers (its schema's VideoAttachmentDetails): the renditions' addresses by quality, and what the video is.
      if (!videos.has(video[1]!)) return refuse(404, 'not.found', 'Video not found');
      return ok({ token: video[1], urls: { mp4_720: `${base}/cdn/${video[1]}.mp4` }, thumbnail: { photo_id: 1, token: `thumb-${video[1]}`, url: `${base}/cdn/${video[1]}.jpg` }, width: 1280, height: 720, duration: 3 });
    }
    switch (`${method} ${path}`) {
      case 'GET /me':
        return ok({ ...bot, is_bot: true, name: bot.first_name, last_activity_time: Date.now() });
      case 'GET /subscriptions':
        return ok({ subscriptions: mine.map((s) => ({ url: s.url, time: Date.now(), update_types: s.update_types })) });
      case 'POST /subscriptions': {
        const secret = body.secret as string | undefined;
        if (secret !== undefined && !/^[\w-]{5,256}$/.test(secret)) return refuse(400, 'proto.payload', 'Invalid secret');
        const url = String(body.url);
        subscriptions.set(token, [...mine.filter((s) => s.url !== url), { url, secret, update_types: (body.update_types as string[]) ?? [] }]);
        return ok({ success: true });
      }
      case 'DELETE /subscriptions':
        subscriptions.set(token, mine.filter((s) => s.url !== query.url));
        return ok({ success: true });
      case 'POST /uploads': {
        if (!['image', 'video', 'audio', 'file'].includes(query.type ?? '')) return refuse(400, 'proto.payload', 'Missing required parameter: type');
        const id = `u${next++}`;
        pendingUploads.set(id, query.type!);
        // Video and audio get their token with the address; images and files from the upload's answer.
        return ok({ url: `${base}/upload/${id}`, ...(query.type === 'video' || query.type === 'audio' ? { token: `${query.type}-token-${id}` } : {}) });
      }
      case 'POST /messages': {
        const userId = Number(query.user_id);
        const chatId = Number(query.chat_id);
        if (query.user_id !== undefined && blocked.has(userId)) return refuse(403, 'chat.denied', `Key: error.dialog.suspended, args: [${userId},].`);
        if (query.user_id !== undefined ? !dialogs.has(userId) : !dialogs.has(chatId)) return refuse(404, 'chat.not.found', 'Chat not found');
        const text = typeof body.text === 'string' ? body.text : '';
        if ([...text].length > TEXT_LIMIT) return refuse(400, 'proto.payload', `Field 'text' size (${[...text].length}) must be at most ${TEXT_LIMIT}`);
        const attachments = (body.attachments as { type: string; payload?: Record<string, unknown> }[] | undefined) ?? [];
        if (attachments.some((a) => a.type !== 'inline_keyboard') && notReady > 0) {
          notReady--;
          return refuse(400, 'attachment.not.ready', 'Key: errors.process.attachment.file.not.processed');
        }
        const mid = `mid.${String(next++).padStart(32, '0')}`;
        const dialog = query.user_id !== undefined;
        const message = {
          sender: { user_id: bot.user_id, first_name: bot.first_name, name: bot.first_name, username: bot.username, is_bot: true, last_activity_time: Date.now() },
          recipient: { chat_id: dialog ? 9_000_000 + userId : chatId, chat_type: dialog ? 'dialog' : 'chat', user_id: dialog ? userId : null, post_id: null },
          timestamp: Date.now(),
          body: { mid, seq: next, text, ...(attachments.length ? { attachments: attachments.map((a) => keptAttachment(a, base, () => next++)) } : {}) },
        };
        sentMessages.set(mid, message);
        return ok({ message });
      }
      case 'POST /answers': {
        if (!query.callback_id?.trim()) return refuse(400, 'proto.payload', 'Missing required parameter: callback_id');
        if (body.message == null && body.notification == null) return refuse(400, 'proto.payload', 'Either message or notification must be set');
        // Assumed (MAX does not document it): a callback id it never issued to this bot, or one answered already, is
        // refused, as 400 `proto.payload`; a press is answered once.
        const press = presses.get(query.callback_id);
        if (press?.token !== token) return refuse(400, 'proto.payload', `Unknown callback_id: ${query.callback_id}`);
        if (press.answered) return refuse(400, 'proto.payload', `Callback ${query.callback_id} is already answered`);
        press.answered = true;
        return ok({ success: true });
      }
      case 'PUT /messages': {
        if (!query.message_id?.startsWith('mid.')) return refuse(404, 'not.found', 'Message not found');
        // Without `attachments` the message keeps its own (its keyboard); with them, they replace its own.
        const kept = sentMessages.get(query.message_id);
        if (kept) {
          const was = kept.body as Record<string, unknown>;
          kept.body = { ...was, ...(typeof body.text === 'string' ? { text: body.text } : {}), ...(Array.isArray(body.attachments) ? { attachments: body.attachments } : {}) };
        }
        return ok({ success: true });
      }
      case 'DELETE /messages':
        if (!query.message_id?.startsWith('mid.')) return refuse(404, 'not.found', 'Message not found');
        sentMessages.delete(query.message_id);
        return ok({ success: true });
      default:
        return refuse(404, 'not.found', `No method ${method} ${path}`);
    }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const cdn = /^\/cdn\/([\w-]+)\.mp4$/.exec(url.pathname);
    if (req.method === 'GET' && (cdn || url.pathname.startsWith('/files/'))) {
      downloads.push({ path: url.pathname, range: req.headers.range });
      const content = cdn ? videos.get(cdn[1]!) : undefined;
      const file = cdn ? content && { content, contentType: 'video/mp4' } : files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      if (!file) return void res.writeHead(404).end();
      return serveFile(req, res, file, rangesIgnored);
    }
    void bodyBytes(req).then((raw) => {
      const upload = /^\/upload\/(\w+)$/.exec(url.pathname);
      if (req.method === 'POST' && upload) {
        const type = pendingUploads.get(upload[1]!);
        if (!type) return void res.writeHead(404).end();
        pendingUploads.delete(upload[1]!);
        uploads.push({ type, contentType: String(req.headers['content-type']), body: raw.toString('latin1') });
        const reply = type === 'image' ? { photos: { [`hash-${upload[1]}`]: { token: `image-token-${upload[1]}` } } } : type === 'file' ? { token: `file-token-${upload[1]}` } : {};
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      }
      let body: Record<string, unknown> = {};
      try {
        body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'proto.payload', message: 'Invalid JSON' }));
      }
      const token = String(req.headers.authorization ?? '');
      const query = Object.fromEntries(url.searchParams);
      const method = req.method ?? 'GET';
      const result = answer(token, method, url.pathname, query, body);
      calls.push({ token, method, path: url.pathname, query, body, at: Date.now() });
      if (raw.length) schema.check(`request ${method} ${url.pathname}`, maxRequest(method, url.pathname), body);
      schema.check(`answer ${method} ${url.pathname} ${result.status}`, maxAnswer(method, url.pathname, result.status), result.body);
      res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers }).end(JSON.stringify(result.body));
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Who wrote in an update: the bot may answer them (or the group) from now on. */
  const noteWriter = (update: unknown) => {
    const message = (update as { message?: { sender?: { user_id?: number }; recipient?: { chat_id?: number; chat_type?: string } } }).message;
    if (message?.recipient?.chat_type === 'dialog' && typeof message.sender?.user_id === 'number') dialogs.add(message.sender.user_id);
    if (message?.recipient?.chat_type === 'chat' && typeof message.recipient.chat_id === 'number') dialogs.add(message.recipient.chat_id);
  };

  /** Posts an update to the bot's subscriptions that take its type; the last one's status. */
  async function deliver(token: string, update: unknown, secret?: string | null): Promise<number> {
    const type = (update as { update_type?: unknown } | null)?.update_type;
    const subs = (subscriptions.get(token) ?? []).filter((s) => s.update_types.length === 0 || s.update_types.includes(String(type)));
    if (subs.length === 0) throw new Error(`the bot has no subscription for ${String(type)}`);
    noteWriter(update);
    schema.check(`update ${String(type)}`, maxUpdate(), update);
    let status = 0;
    for (const sub of subs) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const sending = secret === undefined ? sub.secret : secret;
      if (sending !== undefined && sending !== null) headers['x-max-bot-api-secret'] = sending;
      const res = await request(sub.url, { method: 'POST', headers, body: JSON.stringify(update) });
      await res.body.dump();
      status = res.statusCode;
    }
    return status;
  }

  function issueCallback(token: string): string {
    const callbackId = `cb${next++}.${Date.now().toString(36)}`;
    presses.set(callbackId, { token, answered: false });
    return callbackId;
  }

  return {
    url: base,
    calls,
    uploads,
    addBot: (token, bot) => void bots.set(token, bot),
    subscriptionsOf: (token) => subscriptions.get(token) ?? [],
    revoke: (token) => void bots.delete(token),
    wroteTo: (id) => void dialogs.add(id),
    block: (userId) => void blocked.add(userId),
    hostFile(name, content, contentType) {
      files.set(name, { content, contentType });
      return `${base}/files/${encodeURIComponent(name)}`;
    },
    addVideo: (videoToken, content) => void videos.set(videoToken, content),
    downloads,
    ignoreRanges: (ignore = true) => void (rangesIgnored = ignore),
    notReadyFor: (times) => void (notReady = times),
    failNext: (route, times, status = 500, retryAfter = 1) => void failures.set(route, { times, status, retryAfter }),
    deliver,
    customerEdits: (token, message) => deliver(token, { update_type: 'message_edited', timestamp: Date.now(), message }),
    issueCallback,
    async pressButton(token, mid, payload, user) {
      const callbackId = issueCallback(token);
      const message = sentMessages.get(mid) ?? null;
      const update = { update_type: 'message_callback', timestamp: Date.now(), callback: { timestamp: Date.now(), callback_id: callbackId, payload, user }, message, user_locale: 'ru' };
      return { status: await deliver(token, update), callbackId, update };
    },
    schema,
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      schema.assertNone();
    },
  };
}
