import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/**
 * A local stand-in for the Telegram Bot API (https://core.telegram.org/bots/api), for the live driver's tests:
 * the methods the gateway calls, answered as Telegram answers them (`{ok, result}` or `{ok: false, error_code,
 * description}`), and a way to post an update to a bot's webhook as Telegram would.
 */

export interface EmulatedBot {
  id: number;
  username: string;
  first_name: string;
}

export interface BotCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

interface Webhook {
  url: string;
  secret: string | undefined;
}

export interface TelegramEmulator {
  url: string;
  /** Every call in the order it came. */
  calls: BotCall[];
  /** Adds a bot whose token the API knows. */
  addBot(token: string, bot: EmulatedBot): void;
  /** The webhook a bot's token registered last. */
  webhookOf(token: string): Webhook | undefined;
  /** The bot's owner revoked the token in @BotFather: every call with it is refused with 401. */
  revoke(token: string): void;
  /** A file Telegram keeps for the bots: `getFile` finds it and its download address serves it. */
  addFile(fileId: string, content: Buffer, contentType: string): void;
  /** A user who blocked the bot: sends to them are refused with 403. */
  block(chatId: number): void;
  /** Makes the next calls of a method fail as the API fails when it is overloaded (429: asking to wait `retryAfter` s). */
  failNext(method: string, times: number, errorCode?: number, retryAfter?: number): void;
  /** Posts an update to the bot's webhook with its secret (or another one); the gateway's status code. */
  deliver(token: string, update: unknown, secret?: string): Promise<number>;
  close(): Promise<void>;
}

const TEXT_LIMIT = 4096;

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
      } catch (err) {
        reject(err as Error);
      }
    });
    req.on('error', reject);
  });
}

export async function startTelegramEmulator(): Promise<TelegramEmulator> {
  const bots = new Map<string, EmulatedBot>();
  const webhooks = new Map<string, Webhook>();
  const blocked = new Set<number>();
  const failures = new Map<string, { times: number; errorCode: number; retryAfter: number }>();
  const calls: BotCall[] = [];
  const files = new Map<string, { content: Buffer; contentType: string }>();
  let nextMessageId = 100;

  type Answer = { status: number; body: Record<string, unknown> };
  const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
  const refuse = (errorCode: number, description: string, extra: Record<string, unknown> = {}): Answer => ({
    status: errorCode,
    body: { ok: false, error_code: errorCode, description, ...extra },
  });

  function answer(token: string, method: string, params: Record<string, unknown>): Answer {
    const bot = bots.get(token);
    if (!bot) return refuse(401, 'Unauthorized');
    const failing = failures.get(method);
    if (failing && failing.times > 0) {
      failing.times--;
      return failing.errorCode === 429
        ? refuse(429, `Too Many Requests: retry after ${failing.retryAfter}`, { parameters: { retry_after: failing.retryAfter } })
        : refuse(failing.errorCode, 'Internal Server Error');
    }
    const chatId = Number(params.chat_id);
    const sent = (fields: Record<string, unknown>) => ({ message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' }, ...fields });
    switch (method) {
      case 'getMe':
        return ok({ id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username });
      case 'setWebhook':
        webhooks.set(token, { url: String(params.url), secret: params.secret_token as string | undefined });
        return ok(true);
      case 'deleteWebhook':
        webhooks.delete(token);
        return ok(true);
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendDocument': {
        if (blocked.has(chatId)) return refuse(403, 'Forbidden: bot was blocked by the user');
        if (!Number.isFinite(chatId) || chatId === 0) return refuse(400, 'Bad Request: chat not found');
        if (method === 'sendMessage' && [...String(params.text ?? '')].length > TEXT_LIMIT) return refuse(400, 'Bad Request: message is too long');
        return ok(sent(method === 'sendMessage' ? { text: params.text } : { caption: params.caption }));
      }
      case 'editMessageText':
      case 'editMessageCaption':
      case 'editMessageMedia':
        return ok(sent({ message_id: Number(params.message_id) }));
      case 'deleteMessage':
        return ok(true);
      case 'getFile':
        return files.has(String(params.file_id))
          ? ok({ file_id: params.file_id, file_size: files.get(String(params.file_id))!.content.length, file_path: `files/${String(params.file_id)}` })
          : refuse(400, 'Bad Request: invalid file_id');
      default:
        return refuse(404, 'Not Found');
    }
  }

  const server: Server = createServer((req, res) => {
    const download = /^\/file\/bot([^/]+)\/files\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && download) {
      const file = bots.has(download[1]!) ? files.get(decodeURIComponent(download[2]!)) : undefined;
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.content.length }).end(file.content);
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    void readJson(req).then(
      (params) => {
        const { status, body } = match ? answer(match[1]!, match[2]!, params) : refuse(404, 'Not Found');
        if (match) calls.push({ token: match[1]!, method: match[2]!, params, at: Date.now() });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      () => res.writeHead(400).end(JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: invalid JSON' })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    addBot: (token, bot) => void bots.set(token, bot),
    webhookOf: (token) => webhooks.get(token),
    revoke: (token) => void bots.delete(token),
    addFile: (fileId, content, contentType) => void files.set(fileId, { content, contentType }),
    block: (chatId) => void blocked.add(chatId),
    failNext: (method, times, errorCode = 500, retryAfter = 1) => void failures.set(method, { times, errorCode, retryAfter }),
    async deliver(token, update, secret) {
      const hook = webhooks.get(token);
      if (!hook) throw new Error('the bot has no webhook');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const sending = secret ?? hook.secret;
      if (sending !== undefined) headers['x-telegram-bot-api-secret-token'] = sending;
      const res = await request(hook.url, { method: 'POST', headers, body: JSON.stringify(update) });
      await res.body.dump();
      return res.statusCode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
