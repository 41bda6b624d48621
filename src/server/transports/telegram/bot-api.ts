import type { BotMessageReaction } from './bot-reactions.ts';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { undici } from '../lazy-undici.ts';

/**
 * The few Telegram Bot API methods the gateway calls (https://core.telegram.org/bots/api), at a configurable
 * base URL: https://api.telegram.org in production, a local emulator in tests.
 */

/** A refusal of the Bot API: its answer `{ok: false, error_code, description, parameters?}`. */
export class BotApiError extends Error {
  readonly errorCode: number;
  /** Seconds to wait, when the API says so (429). */
  readonly retryAfter: number | null;
  /** The group became a supergroup, which has this id now (400). */
  readonly migrateToChatId: number | null;

  constructor(errorCode: number, description: string, retryAfter: number | null, migrateToChatId: number | null = null) {
    super(description);
    this.name = 'BotApiError';
    this.errorCode = errorCode;
    this.retryAfter = retryAfter;
    this.migrateToChatId = migrateToChatId;
  }
}

/** The API could not be reached, or answered with something that is not the API's answer. */
export class BotApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BotApiUnreachable';
  }
}

export interface BotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
}

export interface BotChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/** A file of a message as Telegram describes it (a photo comes in several sizes, the largest last). */
export interface BotFile {
  file_id: string;
  /** The same for one file over time and for every bot, where `file_id` may be re-issued; it cannot download the file. */
  file_unique_id?: string;
  file_size?: number;
  file_name?: string;
  mime_type?: string;
}

export interface BotMessage {
  message_id: number;
  date: number;
  /** An edited message's: when (Unix seconds) it was last edited. */
  edit_date?: number;
  chat: BotChat;
  from?: BotUser;
  text?: string;
  caption?: string;
  photo?: BotFile[];
  document?: BotFile;
  video?: BotFile;
  audio?: BotFile;
  voice?: BotFile;
  /** A service message: the group became a supergroup with this id (posted in the old group)… */
  migrate_to_chat_id?: number;
  /** …and this supergroup was that group (posted in the new one). */
  migrate_from_chat_id?: number;
  /** The message's inline keyboard. */
  reply_markup?: { inline_keyboard?: BotInlineButton[][] };
}

export interface BotInlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}

/**
 * An inline button was pressed. `message` is the message it is on; one older than Telegram keeps comes without
 * its content (`date` 0), and a button of a message sent in inline mode has none at all.
 */
export interface BotCallbackQuery {
  id: string;
  from: BotUser;
  message?: BotMessage;
  inline_message_id?: string;
  data?: string;
}

export interface BotUpdate {
  update_id: number;
  message?: BotMessage;
  /** A message the customer changed, as it is now. */
  edited_message?: BotMessage;
  callback_query?: BotCallbackQuery;
  message_reaction?: BotMessageReaction;
}

/** A call's parameters as multipart/form-data, a file among them (file-source.ts builds it). */
export interface BotForm {
  headers: Record<string, string>;
  body: Readable;
}

export interface BotApi {
  call<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** A call that uploads a file: its parameters and the file as a form. `signal` ends it where it stands. */
  upload<T>(method: string, form: BotForm, signal?: AbortSignal): Promise<T>;
}

interface Answer {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** Where a file Telegram stored (`getFile`'s `file_path`) is downloaded; the address holds the token. */
export const fileDownloadUrl = (baseUrl: string, token: string, filePath: string): string => `${baseUrl.replace(/\/+$/, '')}/file/bot${token}/${filePath}`;

/**
 * Telegram's answer. A body too large for it is refused by its web server before the API sees it (413, a page
 * of HTML rather than the API's JSON): that is the API's refusal all the same.
 */
async function answerOf(res: Dispatcher.ResponseData): Promise<Answer> {
  if (res.statusCode === 413) {
    await res.body.dump();
    return { ok: false, error_code: 413, description: 'Request Entity Too Large' };
  }
  return (await res.body.json()) as Answer;
}

/**
 * One bot's API: every call is a POST to `<base>/bot<token>/<method>`, of JSON, or of a form where it uploads a
 * file. The token never reaches a log.
 */
export function botApi(baseUrl: string, token: string, timeoutMs = 15_000): BotApi {
  const base = `${baseUrl.replace(/\/+$/, '')}/bot${token}`;
  async function post<T>(method: string, headers: Record<string, string>, body: string | Readable, signal?: AbortSignal): Promise<T> {
    let answer: Answer;
    try {
      const res = await undici().request(`${base}/${method}`, {
        method: 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      });
      answer = await answerOf(res);
    } catch (err) {
      // The URL holds the token: only the method and the kind of failure are said (not the error itself, nor its cause).
      throw new BotApiUnreachable(`Telegram Bot API ${method} failed: ${err instanceof Error ? err.name : 'error'}`);
    }
    if (answer.ok) return answer.result as T;
    const { retry_after: retryAfter, migrate_to_chat_id: migrateTo } = answer.parameters ?? {};
    throw new BotApiError(answer.error_code ?? 0, answer.description ?? 'no description', retryAfter ?? null, typeof migrateTo === 'number' ? migrateTo : null);
  }
  return {
    call: <T>(method: string, params: Record<string, unknown> = {}) => post<T>(method, { 'content-type': 'application/json' }, JSON.stringify(params)),
    upload: <T>(method: string, form: BotForm, signal?: AbortSignal) => post<T>(method, form.headers, form.body, signal),
  };
}
