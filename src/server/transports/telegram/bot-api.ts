import { request } from 'undici';

/**
 * The few Telegram Bot API methods the gateway calls (https://core.telegram.org/bots/api), at a configurable
 * base URL: https://api.telegram.org in production, a local emulator in tests.
 */

/** A refusal of the Bot API: its answer `{ok: false, error_code, description, parameters?}`. */
export class BotApiError extends Error {
  readonly errorCode: number;
  /** Seconds to wait, when the API says so (429). */
  readonly retryAfter: number | null;

  constructor(errorCode: number, description: string, retryAfter: number | null) {
    super(description);
    this.name = 'BotApiError';
    this.errorCode = errorCode;
    this.retryAfter = retryAfter;
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
  file_size?: number;
  file_name?: string;
  mime_type?: string;
}

export interface BotMessage {
  message_id: number;
  date: number;
  chat: BotChat;
  from?: BotUser;
  text?: string;
  caption?: string;
  photo?: BotFile[];
  document?: BotFile;
  video?: BotFile;
  audio?: BotFile;
  voice?: BotFile;
}

export interface BotUpdate {
  update_id: number;
  message?: BotMessage;
}

export interface BotApi {
  call<T>(method: string, params?: Record<string, unknown>): Promise<T>;
}

interface Answer {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/** Where a file Telegram stored (`getFile`'s `file_path`) is downloaded; the address holds the token. */
export const fileDownloadUrl = (baseUrl: string, token: string, filePath: string): string => `${baseUrl.replace(/\/+$/, '')}/file/bot${token}/${filePath}`;

/** One bot's API: every call is a POST of JSON to `<base>/bot<token>/<method>`. The token never reaches a log. */
export function botApi(baseUrl: string, token: string, timeoutMs = 15_000): BotApi {
  const base = `${baseUrl.replace(/\/+$/, '')}/bot${token}`;
  return {
    async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      let answer: Answer;
      try {
        const res = await request(`${base}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        answer = (await res.body.json()) as Answer;
      } catch (err) {
        // The URL holds the token: only the method and the kind of failure are said (not the error itself, nor its cause).
        throw new BotApiUnreachable(`Telegram Bot API ${method} failed: ${err instanceof Error ? err.name : 'error'}`);
      }
      if (answer.ok) return answer.result as T;
      throw new BotApiError(answer.error_code ?? 0, answer.description ?? 'no description', answer.parameters?.retry_after ?? null);
    },
  };
}
