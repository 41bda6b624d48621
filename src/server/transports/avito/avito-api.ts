import type { Readable } from 'node:stream';
import { undici } from '../lazy-undici.ts';
import { parsedAnswer, retryAfterOf } from '../bot-common.ts';

/**
 * The few methods of Avito's API the gateway calls (developers.avito.ru: "Авторизация", "Информация о пользователе",
 * "Мессенджер"), at a configurable base URL: https://api.avito.ru in production, a local emulator in tests. The
 * account's access token goes in the Authorization header as `Bearer`, the application's secret only in the body of
 * `POST /token`; neither is ever part of a URL or an error's words.
 */

/** A refusal of the API: an HTTP error, `{error: {code, message}}` in Avito's documented shape. */
export class AvitoApiError extends Error {
  readonly status: number;
  /** How long Avito asked to wait (its Retry-After header), when it said. */
  readonly retryAfterMs: number | null;

  constructor(status: number, message: string, retryAfterMs: number | null = null) {
    super(message || `HTTP ${status}`);
    this.name = 'AvitoApiError';
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The API could not be reached, or answered with something that is not the API's answer. */
export class AvitoApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AvitoApiUnreachable';
  }
}

/** `POST /token` refused the grant (a code or a refresh token Avito does not take, or the application's own keys). */
export class GrantRefused extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'GrantRefused';
    this.status = status;
  }
}

/** What `POST /token` answers for an authorization code or a refresh token (both rotate: a new pair each time). */
export interface TokenGrant {
  access_token: string;
  refresh_token: string;
  /** Seconds (Avito: 86400). */
  expires_in: number;
}

/** `GET /core/v1/accounts/self`: the account the token acts for. */
export interface AvitoSelf {
  id: number;
  name?: string | null;
  phone?: string | null;
  profile_url?: string | null;
}

export interface CallOptions {
  /** The account's access token. */
  token: string;
  /** A JSON body. */
  body?: unknown;
  /** A body of its own with its headers (an upload's multipart form). */
  stream?: { body: Readable; headers: Record<string, string> };
  /** Ends the call where it stands (a send's deadline): it fails as AvitoApiUnreachable. */
  signal?: AbortSignal;
}

export interface AvitoApi {
  call<T>(method: 'GET' | 'POST', path: string, options: CallOptions): Promise<T>;
  /** `POST /token` with the application's keys and one grant (`authorization_code` + `code`, or `refresh_token` + `refresh_token`). */
  grant(grant: Record<string, string>, signal?: AbortSignal): Promise<TokenGrant>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Avito's words for a refusal: `{error: {message}}` (the API), `{error, error_description}` (OAuth), or `{message}`. */
function wordsOf(answer: unknown): string {
  if (!isObject(answer)) return '';
  const error = answer.error;
  if (isObject(error) && typeof error.message === 'string') return error.message;
  if (typeof answer.error_description === 'string') return answer.error_description;
  if (typeof error === 'string') return error;
  return typeof answer.message === 'string' ? answer.message : '';
}

/** The application's access to Avito: its keys (AVITO_CLIENT_ID, AVITO_CLIENT_SECRET) and where the API is. */
export interface AvitoApplication {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

export function avitoApi(app: AvitoApplication, timeoutMs = 15_000): AvitoApi {
  const base = app.apiUrl.replace(/\/+$/, '');

  /** One exchange; only the method, the path and the kind of failure are ever said of it. */
  async function exchange(method: string, path: string, headers: Record<string, string>, body: string | Readable | undefined, signal?: AbortSignal) {
    try {
      const res = await undici().request(`${base}${path}`, {
        method: method as 'GET' | 'POST',
        headers,
        ...(body === undefined ? {} : { body }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, retryAfterMs: retryAfterOf(res.headers['retry-after']), answer: parsedAnswer(text) };
    } catch (err) {
      throw new AvitoApiUnreachable(`Avito API ${method} ${path} failed: ${err instanceof Error ? err.name : 'error'}`);
    }
  }

  return {
    async call<T>(method: 'GET' | 'POST', path: string, options: CallOptions): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${options.token}`, ...options.stream?.headers };
      let body: string | Readable | undefined = options.stream?.body;
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const { status, retryAfterMs, answer } = await exchange(method, path, headers, body, options.signal);
      // A proxy's error page, say: its status still tells what happened; a success that is not JSON is no answer.
      if (status >= 200 && status <= 299) {
        if (answer === undefined) throw new AvitoApiUnreachable(`Avito API ${method} ${path} answered with something else`);
        return answer as T;
      }
      throw new AvitoApiError(status, wordsOf(answer), retryAfterMs);
    },

    async grant(grant, signal) {
      const form = new URLSearchParams({ ...grant, client_id: app.clientId, client_secret: app.clientSecret }).toString();
      const { status, retryAfterMs, answer } = await exchange('POST', '/token', { 'content-type': 'application/x-www-form-urlencoded' }, form, signal);
      // A wait, or Avito's own failure, may pass; any other refusal is of the grant (or of the application's keys).
      if (status === 408 || status === 429 || status >= 500) throw new AvitoApiError(status, wordsOf(answer), retryAfterMs);
      if (status >= 400) throw new GrantRefused(status, wordsOf(answer) || `HTTP ${status}`);
      const said = isObject(answer) ? answer : {};
      // OAuth servers may say a refusal with 200 and `error`; a success without tokens is no answer at all.
      if (typeof said.error === 'string') throw new GrantRefused(status, wordsOf(said));
      if (typeof said.access_token !== 'string' || typeof said.refresh_token !== 'string' || typeof said.expires_in !== 'number') {
        throw new AvitoApiUnreachable('Avito API POST /token answered without a pair of tokens');
      }
      return { access_token: said.access_token, refresh_token: said.refresh_token, expires_in: said.expires_in };
    },
  };
}
