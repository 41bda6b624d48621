import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { serveFile } from './file-server.ts';
import { warmTelegram } from './schema-check/warm.ts';
import { schemaChecks, type SchemaChecks } from './schema-check/schema-checks.ts';
import { telegramAnswer, telegramParamsOf, telegramRequest, telegramUpdate } from './schema-check/telegram-schema.ts';

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

/** A file a bot uploaded in a form (multipart/form-data), as Telegram received it. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

export interface BotCall {
  token: string;
  method: string;
  /** The call's parameters; of a form, its text fields, those that hold JSON (a keyboard, a quote, media) read as such. */
  params: Record<string, unknown>;
  /** The files a form carried, by their fields. */
  files?: Record<string, UploadedFile>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

interface Webhook {
  url: string;
  secret: string | undefined;
  /** The kinds of update it takes (`allowed_updates`); undefined: every kind the emulator posts. */
  allowedUpdates: string[] | undefined;
}

/** Some of the standard reactions Telegram lets bots set (the emulator refuses others, as Telegram does). */
const BOT_REACTIONS = new Set(['👍', '👎', '❤', '🔥', '🙏', '👌', '😁', '🤔', '🎉', '😢']);

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
  /** A file Telegram keeps for the bots: `getFile` finds it and its download address serves it (a single `Range` of it too). */
  addFile(fileId: string, content: Buffer, contentType: string): void;
  /** Every download of a file, in the order it came, with the `Range` it asked for. */
  downloads: { fileId: string; range: string | undefined }[];
  /** From now on the file server ignores `Range` (or, given false, takes it again): every download is all of the file, 200. */
  ignoreRanges(ignore?: boolean): void;
  /** A user who blocked the bot: sends to them are refused with 403. */
  block(chatId: number): void;
  /**
   * Makes the next calls of a method fail as the API fails when it is overloaded (429: asking to wait `retryAfter`
   * s), or as it refuses with `description`.
   */
  failNext(method: string, times: number, errorCode?: number, retryAfter?: number, description?: string): void;
  /**
   * Posts an update to the bot's webhook with its secret (or another one); the gateway's status code. A method the
   * answer names (`{method, …}`) is run as Telegram runs it, and recorded among the calls.
   */
  deliver(token: string, update: unknown, secret?: string): Promise<number>;
  /** A customer changed a message of theirs: `edited_message`, the message as it is now. */
  customerEdits(token: string, message: Record<string, unknown>): Promise<number>;
  /**
   * A user pressed an inline button of a message the bot sent: `callback_query` with the message as Telegram
   * keeps it (its keyboard included), or only its chat and number once it is too old (`old`). Answers the query's id.
   */
  pressButton(token: string, press: { from: Record<string, unknown>; messageId: number; data: string; old?: boolean }): Promise<{ status: number; queryId: string }>;
  /**
   * A group became a supergroup: sends to the old id are refused with its new one (400, `migrate_to_chat_id`), and
   * the service messages are posted, in the old group and then in the new one (unless `posted` is false: they are
   * late). The gateway's status codes.
   */
  upgradeGroup(token: string, group: { id: number; title: string }, to: number, by: Record<string, unknown>, options?: { posted?: boolean }): Promise<number[]>;
  /** The calls, answers and updates checked against @grammyjs/types' Bot API (schemas/telegram.json); `close()` throws the mismatches. */
  schema: SchemaChecks;
  close(): Promise<void>;
}

const TEXT_LIMIT = 4096;

/** The parameters Telegram reads as JSON when they come as form fields. */
const JSON_FIELDS = new Set(['reply_markup', 'reply_parameters', 'media', 'allowed_updates']);

/** A call's parameters, as JSON or as a form (whose files come apart, by their fields). */
async function readParams(req: IncomingMessage): Promise<{ params: Record<string, unknown>; files?: Record<string, UploadedFile> }> {
  const body = Buffer.concat(await req.toArray());
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) {
    const text = body.toString('utf8');
    return { params: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
  const form = await new Request('http://telegram.invalid/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
  const params: Record<string, unknown> = {};
  const files: Record<string, UploadedFile> = {};
  for (const [field, value] of form) {
    if (typeof value === 'string') params[field] = JSON_FIELDS.has(field) ? (JSON.parse(value) as unknown) : value;
    else files[field] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { params, files };
}

/** What a bot may do, as getMe tells it (a bot as @BotFather makes it). */
const GET_ME_ABILITIES = { can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false, can_connect_to_business: false, has_main_web_app: false, has_topics_enabled: false, allows_users_to_create_topics: false, can_manage_bots: false, supports_join_request_queries: false };

/** Which parameter of a send holds its file. */
const fileFields: Record<string, string> = { sendPhoto: 'photo', sendVideo: 'video', sendAudio: 'audio', sendVoice: 'voice', sendDocument: 'document' };

/**
 * Whether an uploaded voice note is one Telegram plays as such: "audio must be in an .OGG file encoded with OPUS, or
 * in .MP3 format, or in .M4A format … Other formats may be sent as Audio or Document" (sendVoice). Ogg is told by its
 * pages (`OggS`) and its first packet (`OpusHead`), MP3 by its ID3 tag or frame sync, M4A by its `ftyp` box.
 */
const isVoiceFile = (bytes: Buffer): boolean =>
  (bytes.subarray(0, 4).toString('latin1') === 'OggS' && bytes.subarray(28, 36).toString('latin1') === 'OpusHead') ||
  bytes.subarray(0, 3).toString('latin1') === 'ID3' ||
  (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) ||
  bytes.subarray(4, 8).toString('latin1') === 'ftyp';

export async function startTelegramEmulator(): Promise<TelegramEmulator> {
  const bots = new Map<string, EmulatedBot>();
  const webhooks = new Map<string, Webhook>();
  const blocked = new Set<number>();
  const failures = new Map<string, { times: number; errorCode: number; retryAfter: number; description: string | undefined }>();
  const calls: BotCall[] = [];
  const files = new Map<string, { content: Buffer; contentType: string }>();
  const downloads: { fileId: string; range: string | undefined }[] = [];
  let rangesIgnored = false;
  /** The messages bots sent, as Telegram keeps them (a press brings its message along). */
  const sentMessages = new Map<number, Record<string, unknown>>();
  /** Groups that became supergroups: old id → new id. */
  const upgraded = new Map<number, number>();
  let nextMessageId = 100;
  let nextUpdateId = 10_000;
  let nextQueryId = 1;
  const schema = schemaChecks('Telegram');
  warmTelegram();

  type Answer = { status: number; body: Record<string, unknown> };
  const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
  const refuse = (errorCode: number, description: string, extra: Record<string, unknown> = {}): Answer => ({
    status: errorCode,
    body: { ok: false, error_code: errorCode, description, ...extra },
  });

  let nextFileId = 1;
  /** A file of a sent message as Telegram describes it: uploaded (with its name, type and size) or named by URL. */
  function fileOf(kind: string, uploaded: UploadedFile | undefined): Record<string, unknown> {
    const id = nextFileId++;
    const described = { file_id: `sent-${id}`, file_unique_id: `AQADsent${id}` };
    const size = uploaded ? { file_size: uploaded.bytes.length } : {};
    if (kind === 'photo') return { photo: [{ ...described, ...size, width: 800, height: 600 }] };
    return { [kind]: { ...described, ...size, ...(uploaded ? { file_name: uploaded.name, mime_type: uploaded.type } : {}) } };
  }

  function answer(token: string, method: string, params: Record<string, unknown>, uploads: Record<string, UploadedFile> = {}): Answer {
    const bot = bots.get(token);
    if (!bot) return refuse(401, 'Unauthorized');
    const failing = failures.get(method);
    if (failing && failing.times > 0) {
      failing.times--;
      if (failing.errorCode === 429) return refuse(429, `Too Many Requests: retry after ${failing.retryAfter}`, { parameters: { retry_after: failing.retryAfter } });
      return refuse(failing.errorCode, failing.description ?? 'Internal Server Error');
    }
    const chatId = Number(params.chat_id);
    const sent = (fields: Record<string, unknown>) => {
      const message = {
        message_id: nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
        from: { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username },
        ...fields,
        ...(params.reply_markup ? { reply_markup: params.reply_markup } : {}),
      };
      sentMessages.set(message.message_id, message);
      return message;
    };
    switch (method) {
      case 'getMe':
        // As Telegram: the bot, and what it may do (the fields only getMe returns).
        return ok({ id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username, ...GET_ME_ABILITIES });
      case 'setWebhook':
        // As Telegram: a webhook set without `allowed_updates` keeps the kinds it took before.
        webhooks.set(token, {
          url: String(params.url),
          secret: params.secret_token as string | undefined,
          allowedUpdates: Array.isArray(params.allowed_updates) ? (params.allowed_updates as string[]) : webhooks.get(token)?.allowedUpdates,
        });
        return ok(true);
      case 'getWebhookInfo': {
        const hook = webhooks.get(token);
        return ok({ url: hook?.url ?? '', has_custom_certificate: false, pending_update_count: 0, ...(hook?.allowedUpdates ? { allowed_updates: hook.allowedUpdates } : {}) });
      }
      case 'deleteWebhook':
        webhooks.delete(token);
        return ok(true);
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendVideo':
      case 'sendAudio':
      case 'sendVoice':
      case 'sendDocument': {
        if (blocked.has(chatId)) return refuse(403, 'Forbidden: bot was blocked by the user');
        if (upgraded.has(chatId)) return refuse(400, 'Bad Request: group chat was upgraded to a supergroup chat', { parameters: { migrate_to_chat_id: upgraded.get(chatId) } });
        if (!Number.isFinite(chatId) || chatId === 0) return refuse(400, 'Bad Request: chat not found');
        if (method === 'sendMessage') {
          if ([...String(params.text ?? '')].length > TEXT_LIMIT) return refuse(400, 'Bad Request: message is too long');
          return ok(sent({ text: params.text }));
        }
        // The file is uploaded in the form, or named (a file id, a URL) by the parameter of its kind.
        const field = fileFields[method]!;
        const uploaded = uploads[field];
        if (!uploaded && typeof params[field] !== 'string') return refuse(400, `Bad Request: there is no ${field} in the request`);
        const kind = field === 'voice' && uploaded && !isVoiceFile(uploaded.bytes) ? 'document' : field;
        return ok(sent({ ...fileOf(kind, uploaded), ...(params.caption ? { caption: params.caption } : {}) }));
      }
      case 'editMessageMedia': {
        // `media.media` names a file of the form as attach://<field>.
        const media = (params.media ?? {}) as { type?: string; media?: string; caption?: string };
        const attached = typeof media.media === 'string' && media.media.startsWith('attach://') ? uploads[media.media.slice('attach://'.length)] : undefined;
        if (typeof media.media !== 'string' || (media.media.startsWith('attach://') && !attached)) return refuse(400, 'Bad Request: wrong file identifier/HTTP URL specified');
        return ok(sent({ message_id: Number(params.message_id), edit_date: Math.floor(Date.now() / 1000), ...fileOf(media.type ?? 'document', attached), ...(media.caption ? { caption: media.caption } : {}) }));
      }
      case 'editMessageText':
      case 'editMessageCaption':
        return ok(sent({ message_id: Number(params.message_id), edit_date: Math.floor(Date.now() / 1000) }));
      case 'deleteMessage':
      case 'answerCallbackQuery':
      case 'sendChatAction':
        return ok(true);
      case 'setMessageReaction': {
        // As Telegram: a bot sets one of the standard reactions only.
        const reaction = (params.reaction ?? []) as { type?: string; emoji?: string }[];
        if (reaction.some((r) => r.type !== 'emoji' || !BOT_REACTIONS.has(r.emoji ?? ''))) return refuse(400, 'Bad Request: REACTION_INVALID');
        return ok(true);
      }
      case 'getFile':
        return files.has(String(params.file_id))
          ? ok({ file_id: params.file_id, file_unique_id: `AQAD${String(params.file_id)}`, file_size: files.get(String(params.file_id))!.content.length, file_path: `files/${String(params.file_id)}` })
          : refuse(400, 'Bad Request: invalid file_id');
      default:
        return refuse(404, 'Not Found');
    }
  }

  const server: Server = createServer((req, res) => {
    const download = /^\/file\/bot([^/]+)\/files\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && download) {
      const fileId = decodeURIComponent(download[2]!);
      downloads.push({ fileId, range: req.headers.range });
      const file = bots.has(download[1]!) ? files.get(fileId) : undefined;
      if (!file) return void res.writeHead(404).end();
      return serveFile(req, res, file, rangesIgnored);
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    void readParams(req).then(
      ({ params, files }) => {
        const { status, body } = match ? answer(match[1]!, match[2]!, params, files) : refuse(404, 'Not Found');
        if (match) {
          schema.check(`request ${match[2]!}`, telegramRequest(match[2]!, files !== undefined), telegramParamsOf(params, files));
          schema.check(`answer ${match[2]!}`, telegramAnswer(match[2]!), body);
        }
        if (match) calls.push({ token: match[1]!, method: match[2]!, params, ...(files ? { files } : {}), at: Date.now() });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      () => res.writeHead(400).end(JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: invalid JSON' })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  async function deliver(token: string, update: unknown, secret?: string): Promise<number> {
    const hook = webhooks.get(token);
    if (!hook) throw new Error('the bot has no webhook');
    // Telegram keeps back the kinds of update the webhook was not set to take.
    const kind = Object.keys(update as object).find((key) => key !== 'update_id');
    if (hook.allowedUpdates && kind && !hook.allowedUpdates.includes(kind)) throw new Error(`the bot's webhook does not take ${kind}`);
    schema.check(`update ${kind ?? ''}`, telegramUpdate(), update);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sending = secret ?? hook.secret;
    if (sending !== undefined) headers['x-telegram-bot-api-secret-token'] = sending;
    const res = await request(hook.url, { method: 'POST', headers, body: JSON.stringify(update) });
    const answered = await res.body.text();
    if (res.statusCode === 200) {
      // A webhook may answer with a Bot API call, which Telegram makes (and tells nobody how it went).
      const call = (() => {
        try {
          return JSON.parse(answered) as unknown;
        } catch {
          return null;
        }
      })();
      if (typeof call === 'object' && call !== null && typeof (call as { method?: unknown }).method === 'string') {
        const { method, ...params } = call as { method: string } & Record<string, unknown>;
        schema.check(`request ${method} (a webhook's answer)`, telegramRequest(method), params);
        answer(token, method, params);
        calls.push({ token, method, params, at: Date.now() });
      }
    }
    return res.statusCode;
  }

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    addBot: (token, bot) => void bots.set(token, bot),
    webhookOf: (token) => webhooks.get(token),
    revoke: (token) => void bots.delete(token),
    addFile: (fileId, content, contentType) => void files.set(fileId, { content, contentType }),
    downloads,
    ignoreRanges: (ignore = true) => void (rangesIgnored = ignore),
    block: (chatId) => void blocked.add(chatId),
    failNext: (method, times, errorCode = 500, retryAfter = 1, description) => void failures.set(method, { times, errorCode, retryAfter, description }),
    deliver,
    customerEdits: (token, message) => deliver(token, { update_id: nextUpdateId++, edited_message: { date: Math.floor(Date.now() / 1000), edit_date: Math.floor(Date.now() / 1000), ...message } }),
    async pressButton(token, press) {
      const queryId = String(nextQueryId++);
      const kept = sentMessages.get(press.messageId);
      const chat = kept?.chat ?? { id: press.from.id, type: 'private' };
      const message = press.old || !kept ? { message_id: press.messageId, date: 0, chat } : kept;
      const status = await deliver(token, { update_id: nextUpdateId++, callback_query: { id: queryId, from: press.from, message, chat_instance: '1', data: press.data } });
      return { status, queryId };
    },
    async upgradeGroup(token, group, to, by, options) {
      upgraded.set(group.id, to);
      if (options?.posted === false) return [];
      const date = Math.floor(Date.now() / 1000);
      return [
        await deliver(token, { update_id: nextUpdateId++, message: { message_id: nextMessageId++, date, chat: { id: group.id, type: 'group', title: group.title }, from: by, migrate_to_chat_id: to } }),
        await deliver(token, { update_id: nextUpdateId++, message: { message_id: 1, date, chat: { id: to, type: 'supergroup', title: group.title }, from: { id: 1087968824, is_bot: true, first_name: 'Group' }, migrate_from_chat_id: group.id } }),
      ];
    },
    schema,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      schema.assertNone();
    },
  };
}
