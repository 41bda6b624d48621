import { createHmac, randomBytes } from 'node:crypto';
import { undici } from '../lazy-undici.ts';

/**
 * The calls of Meta's Graph API that the drivers of one Meta app make (Instagram messaging through a Facebook page,
 * WhatsApp's Cloud API), at a configurable base URL: https://graph.facebook.com in production, a local emulator in
 * tests. The access token goes in the Authorization header (Meta's own examples send `Authorization: Bearer` to
 * graph.facebook.com), so no URL holds it; each call carries `appsecret_proof`, the HMAC-SHA256 of the token under
 * the app's secret, which Meta checks when the app requires it and accepts otherwise.
 */

/**
 * The one Graph API version every call names. Meta keeps a version about two years after the next one comes out,
 * and a version's webhooks and answers are what this driver was written against: it is moved on deliberately, here.
 */
export const GRAPH_API_VERSION = 'v24.0';

/** A refusal of the Graph API: its `{error: {message, type, code, error_subcode, is_transient}}` with the HTTP status. */
export class GraphApiError extends Error {
  readonly status: number;
  /** Meta's error code (190 token, 4/17/32/613/80002 rate limits, 100 parameter, 10 and 200 permission…); 0 when none was given. */
  readonly code: number;
  readonly subcode: number | null;
  /** Meta said the failure may pass (`is_transient`). */
  readonly transient: boolean;
  /** How long Meta asked to wait: a Retry-After header, or the longest `estimated_time_to_regain_access` of its usage headers. */
  readonly retryAfterMs: number | null;
  /** What Meta says of the refusal for people (`error_user_msg`, with `error_user_title` before it), where it says it. */
  readonly userMessage: string | null;

  constructor(
    status: number,
    said: { message: string; code: number; subcode: number | null; transient: boolean; userMessage?: string | null },
    retryAfterMs: number | null = null,
  ) {
    super(said.message || `HTTP ${status}`);
    this.name = 'GraphApiError';
    this.status = status;
    this.code = said.code;
    this.subcode = said.subcode;
    this.transient = said.transient;
    this.retryAfterMs = retryAfterMs;
    this.userMessage = said.userMessage ?? null;
  }
}

/** The API could not be reached, or answered with something that is not the API's answer. */
export class GraphApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphApiUnreachable';
  }
}

export type GraphMethod = 'GET' | 'POST' | 'DELETE';

export interface GraphCallOptions {
  query?: Record<string, string>;
  body?: unknown;
  /** A form instead of JSON (an upload of media): its text fields and one file, held in memory. */
  form?: { fields: Record<string, string>; file: { field: string; name: string; contentType: string; bytes: Buffer } };
  timeoutMs?: number;
  /** Ends the call where it stands (a send's deadline): it fails as GraphApiUnreachable. */
  signal?: AbortSignal;
}

export interface GraphApi {
  call<T>(method: GraphMethod, path: string, options?: GraphCallOptions): Promise<T>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * How long Meta asked to wait: seconds (or a date) in Retry-After, else the longest `estimated_time_to_regain_access`
 * (minutes) in X-Business-Use-Case-Usage, which Meta sends on the Business Use Case rate limits pages and Instagram
 * accounts are counted under. Null when it said neither.
 */
export function waitFromHeaders(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | null {
  const retryAfter = header(headers['retry-after']);
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const usage = header(headers['x-business-use-case-usage']);
  if (!usage) return null;
  let minutes: number | null = null;
  try {
    const parsed = JSON.parse(usage) as unknown;
    for (const entries of isObject(parsed) ? Object.values(parsed) : []) {
      for (const entry of Array.isArray(entries) ? entries : []) {
        const regain = isObject(entry) ? entry.estimated_time_to_regain_access : undefined;
        if (typeof regain === 'number' && Number.isFinite(regain) && regain > 0) minutes = Math.max(minutes ?? 0, regain);
      }
    }
  } catch {
    return null;
  }
  return minutes === null ? null : minutes * 60_000;
}

/** Meta's error object, as far as it is read. */
function errorOf(answer: unknown): { message: string; code: number; subcode: number | null; transient: boolean; userMessage: string | null } | null {
  const error = isObject(answer) && isObject(answer.error) ? answer.error : null;
  if (!error) return null;
  const userMessage = typeof error.error_user_msg === 'string' && error.error_user_msg !== '' ? error.error_user_msg : null;
  const userTitle = typeof error.error_user_title === 'string' && error.error_user_title !== '' ? error.error_user_title : null;
  return {
    userMessage: userMessage && userTitle ? `${userTitle}: ${userMessage}` : userMessage,
    message: typeof error.message === 'string' ? error.message : '',
    code: typeof error.code === 'number' ? error.code : 0,
    subcode: typeof error.error_subcode === 'number' ? error.error_subcode : null,
    transient: error.is_transient === true,
  };
}

/** A form of text fields and one file as multipart/form-data, with its boundary in its content type. */
function formBody(form: NonNullable<GraphCallOptions['form']>): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----gateway-graph-${randomBytes(12).toString('hex')}`;
  const safe = (value: string) => value.replace(/["\r\n\\]/g, '_');
  const parts = Object.entries(form.fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${safe(name)}"\r\n\r\n${value}\r\n`);
  const { file } = form;
  const head = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="${safe(file.field)}"; filename="${safe(file.name)}"\r\nContent-Type: ${safe(file.contentType)}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) } };
}

/** The proof that a call with `token` is the app's: HMAC-SHA256 of the token under the app secret, in hex (Meta's definition). */
export const appSecretProof = (token: string, appSecret: string): string => createHmac('sha256', appSecret).update(token).digest('hex');

/**
 * Calls with one access token (a user's, a page's, a business's, or the app's own `<app id>|<app secret>`). JSON in and
 * out; the token never reaches a URL or a log. Null: calls that carry no token (the exchange of an OAuth code, whose
 * app secret is in its query as Meta documents it; never logged either, since no request is).
 */
export function graphApi(baseUrl: string, token: string | null, appSecret: string, timeoutMs = 15_000): GraphApi {
  const base = `${baseUrl.replace(/\/+$/, '')}/${GRAPH_API_VERSION}`;
  const proof = token === null ? null : appSecretProof(token, appSecret);
  return {
    async call<T>(method: GraphMethod, path: string, options: GraphCallOptions = {}): Promise<T> {
      const query = new URLSearchParams({ ...options.query, ...(proof === null ? {} : { appsecret_proof: proof }) }).toString();
      const limit = options.timeoutMs ?? timeoutMs;
      let status: number;
      let headers: Record<string, string | string[] | undefined>;
      let answer: unknown;
      const form = options.form ? formBody(options.form) : null;
      try {
        const res = await undici().request(`${base}${path}?${query}`, {
          method,
          headers: {
            ...(token === null ? {} : { authorization: `Bearer ${token}` }),
            ...(form ? form.headers : options.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(form ? { body: form.body } : options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          headersTimeout: limit,
          bodyTimeout: limit,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        status = res.statusCode;
        headers = res.headers;
        const text = await res.body.text();
        try {
          answer = text ? (JSON.parse(text) as unknown) : {};
        } catch {
          answer = undefined;
        }
      } catch (err) {
        // Only the method, the path and the kind of failure are said: never the request itself.
        throw new GraphApiUnreachable(`Graph API ${method} ${path} failed: ${err instanceof Error ? err.name : 'error'}`);
      }
      const error = errorOf(answer);
      if (error) throw new GraphApiError(status, error, waitFromHeaders(headers));
      // A proxy's error page, say: no Graph answer at all.
      if (status < 200 || status > 299 || answer === undefined) throw new GraphApiUnreachable(`Graph API ${method} ${path} answered ${status} without an answer of the API`);
      return answer as T;
    },
  };
}
