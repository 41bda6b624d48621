import { undici } from '../lazy-undici.ts';
import { parsedAnswer, retryAfterOf } from '../bot-common.ts';

/**
 * The few MAX Bot API methods the gateway calls (https://dev.max.ru/docs-api), at a configurable base URL:
 * https://platform-api2.max.ru in production, a local emulator in tests. The token goes in the Authorization
 * header (MAX no longer takes it as a query parameter), so no URL holds it.
 */

/** A refusal of the API: an HTTP error with `{code, message}`, or a 200 whose `{success: false, message}` says it failed. */
export class MaxApiError extends Error {
  /** The HTTP status (200 for a `success: false` answer). */
  readonly status: number;
  /** MAX's error key (`verify.token`, `chat.denied`, `attachment.not.ready`, `proto.payload`…), or '' when none was given. */
  readonly code: string;
  /** How long MAX asked to wait (its Retry-After header), when it said. */
  readonly retryAfterMs: number | null;

  constructor(status: number, code: string, message: string, retryAfterMs: number | null = null) {
    super(message || code || `HTTP ${status}`);
    this.name = 'MaxApiError';
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The API could not be reached, or answered with something that is not the API's answer. */
export class MaxApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MaxApiUnreachable';
  }
}

export interface MaxUser {
  user_id: number;
  first_name?: string;
  last_name?: string | null;
  /** Deprecated by MAX in favour of first_name, still sent. */
  name?: string | null;
  username?: string | null;
  is_bot?: boolean;
}

export interface MaxAttachment {
  type: string;
  /** A file's address and token; an `inline_keyboard`'s rows of buttons (`buttons`). */
  payload?: { url?: string; token?: string; photo_id?: number; buttons?: unknown } | null;
  /** For files: the name and size MAX keeps. */
  filename?: string;
  size?: number;
}

export interface MaxMessageBody {
  mid: string;
  seq?: number;
  text?: string | null;
  attachments?: MaxAttachment[] | null;
}

export interface MaxMessage {
  sender?: MaxUser | null;
  recipient: { chat_id: number | null; chat_type: 'dialog' | 'chat' | 'channel'; user_id?: number | null };
  timestamp: number;
  /** Null when the message only forwards another (`link.type` `forward`). */
  body: MaxMessageBody | null;
  /** The message this one answers (`reply`) or forwards (`forward`), with that message's own body. */
  link?: { type: 'reply' | 'forward' | string; sender?: MaxUser | null; chat_id?: number | null; message?: MaxMessageBody | null } | null;
}

/** A press of a callback button: who pressed it, and the button's payload. */
export interface MaxCallback {
  timestamp?: number;
  /** Names the press; `POST /answers?callback_id=` answers it. */
  callback_id: string;
  payload?: string | null;
  user: MaxUser;
}

export interface MaxUpdate {
  update_type: string;
  timestamp: number;
  /** A new or edited message (`message_created`, `message_edited`), or the message a pressed button is on (`message_callback`; null once deleted). */
  message?: MaxMessage | null;
  callback?: MaxCallback;
  user_locale?: string | null;
}

/** What `POST /uploads` answers: where to send the bytes, and for video and audio the token already. */
export interface UploadEndpoint {
  url: string;
  token?: string | null;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
  /** Ends the call where it stands (a send's deadline): it fails as MaxApiUnreachable. */
  signal?: AbortSignal;
}

export interface MaxApi {
  call<T>(method: HttpMethod, path: string, options?: CallOptions): Promise<T>;
}

export interface MaxSubscription {
  url: string;
  time?: number;
  update_types?: string[] | null;
}

interface ErrorAnswer {
  code?: unknown;
  message?: unknown;
  success?: unknown;
}

/** One bot's API: JSON in and out, the token in the Authorization header. The token never reaches a log. */
export function maxApi(baseUrl: string, token: string, timeoutMs = 15_000): MaxApi {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async call<T>(method: HttpMethod, path: string, options: CallOptions = {}): Promise<T> {
      const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
      const limit = options.timeoutMs ?? timeoutMs;
      let status: number;
      let retryAfterMs: number | null;
      let answer: unknown;
      try {
        const res = await undici().request(`${base}${path}${query}`, {
          method,
          headers: { authorization: token, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          headersTimeout: limit,
          bodyTimeout: limit,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        status = res.statusCode;
        retryAfterMs = retryAfterOf(res.headers['retry-after']);
        const text = await res.body.text();
        answer = parsedAnswer(text);
      } catch (err) {
        // Only the method, the path and the kind of failure are said: never the request itself.
        throw new MaxApiUnreachable(`MAX Bot API ${method} ${path} failed: ${err instanceof Error ? err.name : 'error'}`);
      }
      // A proxy's error page, say: its status still tells what happened; a success that is not JSON is no answer.
      if (answer === undefined && status >= 200 && status <= 299) throw new MaxApiUnreachable(`MAX Bot API ${method} ${path} answered with something else`);
      const said = (typeof answer === 'object' && answer !== null ? answer : {}) as ErrorAnswer;
      const code = typeof said.code === 'string' ? said.code : '';
      const message = typeof said.message === 'string' ? said.message : '';
      if (status < 200 || status > 299) throw new MaxApiError(status, code, message, retryAfterMs);
      if (said.success === false) throw new MaxApiError(status, code, message);
      return answer as T;
    },
  };
}
