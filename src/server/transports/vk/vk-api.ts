import type { Readable } from 'node:stream';
import { undici } from '../lazy-undici.ts';
import { parsedAnswer } from '../bot-common.ts';

/**
 * The few parts of VK's API the gateway calls (dev.vk.com): methods at `<VK_API_URL>/method/<name>`, each a
 * form-encoded POST with `access_token` and `v` (5.199) in the body, answering `{response}` or
 * `{error: {error_code, error_msg}}` (with HTTP 200 either way); the OAuth server's `GET /access_token`, which
 * exchanges a code (documented for the Authorization Code Flow, with the application's id and secret key and the same
 * `redirect_uri`); and the upload servers VK names, which take a multipart form. No token or secret is ever part of
 * an error's words; the application's secret and the tokens travel in bodies, never in the method's URL (the code's
 * exchange is a GET by VK's documentation: there, the secret is in the query, as VK asks).
 */

export const VK_API_VERSION = '5.199';

/** A refusal of a method: VK's `error_code` and `error_msg`. */
export class VkApiError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message || `VK error ${code}`);
    this.name = 'VkApiError';
    this.code = code;
  }
}

/** VK could not be reached, or answered with something that is not its API's answer. */
export class VkApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VkApiUnreachable';
  }
}

/** The OAuth server refused the code (used already, too old, another application's, or another `redirect_uri`). */
export class CodeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodeRefused';
  }
}

export type VkParams = Readonly<Record<string, string | number | undefined>>;

export interface VkApi {
  /** Calls a method with `token`; its `response`. */
  call<T>(method: string, params: VkParams, token: string, signal?: AbortSignal): Promise<T>;
  /** Exchanges an OAuth code for what the OAuth server answers (a user's `access_token`, or `access_token_<group id>`). */
  exchange(code: string, redirectUri: string): Promise<Record<string, unknown>>;
  /** Posts a multipart form to an upload server VK named; its JSON answer. */
  upload(url: string, form: { body: Readable; headers: Record<string, string> }, signal?: AbortSignal): Promise<unknown>;
}

/** The gateway's VK application (VK_APP_ID, VK_APP_SECRET) and where VK is (VK_API_URL, VK_OAUTH_URL). */
export interface VkApplication {
  appId: string;
  appSecret: string;
  apiUrl: string;
  oauthUrl: string;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

export function vkApi(app: VkApplication, timeoutMs = 15_000): VkApi {
  const api = app.apiUrl.replace(/\/+$/, '');
  const oauth = app.oauthUrl.replace(/\/+$/, '');
  /** One exchange; only what was called and the kind of failure are ever said of it. */
  async function exchange(what: string, url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string | Readable; signal?: AbortSignal }) {
    try {
      const res = await undici().request(url, {
        method: init.method,
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.body === undefined ? {} : { body: init.body }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      return { status: res.statusCode, answer: parsedAnswer(await res.body.text()) };
    } catch (err) {
      throw new VkApiUnreachable(`VK ${what} failed: ${err instanceof Error ? err.name : 'error'}`);
    }
  }
  return {
    async call<T>(method: string, params: VkParams, token: string, signal?: AbortSignal): Promise<T> {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) form.set(name, String(value));
      form.set('access_token', token);
      form.set('v', VK_API_VERSION);
      const { status, answer } = await exchange(method, `${api}/method/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        ...(signal ? { signal } : {}),
      });
      if (isObject(answer) && isObject(answer.error) && typeof answer.error.error_code === 'number') {
        throw new VkApiError(answer.error.error_code, typeof answer.error.error_msg === 'string' ? answer.error.error_msg : '');
      }
      if (status !== 200 || !isObject(answer) || !('response' in answer)) throw new VkApiUnreachable(`VK ${method} answered with something else (HTTP ${status})`);
      return answer.response as T;
    },
    async exchange(code, redirectUri) {
      const query = new URLSearchParams({ client_id: app.appId, client_secret: app.appSecret, redirect_uri: redirectUri, code });
      const { status, answer } = await exchange('access_token', `${oauth}/access_token?${query.toString()}`, { method: 'GET' });
      if (status >= 500 || status === 429) throw new VkApiUnreachable(`VK access_token answered HTTP ${status}`);
      if (!isObject(answer)) throw new VkApiUnreachable('VK access_token answered with something else');
      if (typeof answer.error === 'string' || status >= 400) {
        throw new CodeRefused(typeof answer.error_description === 'string' ? answer.error_description : String(answer.error ?? `HTTP ${status}`));
      }
      return answer;
    },
    async upload(url, form, signal) {
      const { status, answer } = await exchange('upload', url, { method: 'POST', headers: form.headers, body: form.body, ...(signal ? { signal } : {}) });
      if (status !== 200 || !isObject(answer)) throw new VkApiUnreachable(`VK's upload server answered HTTP ${status}`);
      return answer;
    },
  };
}
