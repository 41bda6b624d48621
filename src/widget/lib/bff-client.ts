import type { Contact, ContactKey } from '../../contract/contacts.ts';
import type { EnvelopeOf } from '../../contract/envelope.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { BffChannel, BffTransport, ExchangedSession, SessionInfo } from '../../contract/session.ts';
import type { CrmUser } from '../../contract/users.ts';

/** An error answer of /bff in the gateway's error model. */
export class BffError extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: Record<string, unknown> | undefined;

  constructor(status: number, body: Partial<ErrorBody>) {
    super(body.description ?? `HTTP ${status}`);
    this.name = 'BffError';
    this.status = status;
    this.code = body.error ?? 'UNKNOWN';
    this.data = body.data;
  }
}

export interface BffClientOptions {
  /** Defaults to the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The session is gone (expired, revoked): the frame asks its host for a new link. */
  onSessionLost?(): void;
  now?(): number;
}

/**
 * The frame's HTTP client for /bff. The session token lives only in this closure (third-party cookies are
 * blocked in iframes, and storage would outlive the frame); it is sent as a bearer token.
 */
export function createBffClient(options: BffClientOptions = {}) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = `${options.baseUrl ?? globalThis.location.origin}/bff`;
  const now = options.now ?? Date.now;
  let token: string | null = null;
  let expiresAt = 0;

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    // A file goes as its own bytes under its own type; anything else as JSON.
    const file = typeof Blob !== 'undefined' && body instanceof Blob ? body : null;
    if (body !== undefined) headers['content-type'] = file ? file.type || 'application/octet-stream' : 'application/json';
    const res = await doFetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: file ?? JSON.stringify(body) }) });
    const json = (await res.json().catch(() => ({}))) as EnvelopeOf<T> & Partial<ErrorBody>;
    if (!res.ok) {
      if (res.status === 401 && token) {
        token = null;
        options.onSessionLost?.();
      }
      throw new BffError(res.status, json);
    }
    return json.data;
  }

  return {
    /** The current session token, for the socket.io handshake. */
    token: () => token,
    /** Trades the iframe link for a session (once per link); the answer carries the session's details. */
    async exchange(link: string): Promise<ExchangedSession> {
      const session = await request<ExchangedSession>('POST', '/session', { link });
      token = session.token;
      expiresAt = Date.parse(session.expires_at);
      return session;
    },
    /** Takes up a session this frame held before a reload (the link was used once); the next call tells if it still holds. */
    resume(saved: { token: string; expires_at: string }): void {
      token = saved.token;
      expiresAt = Date.parse(saved.expires_at);
    },
    /** The session as it can be taken up again after a reload. */
    saved: (): { token: string; expires_at: string } | null => (token ? { token, expires_at: new Date(expiresAt).toISOString() } : null),
    session: () => request<SessionInfo>('GET', '/session'),
    async renew(): Promise<void> {
      expiresAt = Date.parse((await request<{ expires_at: string }>('POST', '/session/renew')).expires_at);
    },
    async end(): Promise<void> {
      await request<null>('DELETE', '/session');
      token = null;
    },
    /** Milliseconds until the session should be renewed: halfway to its expiry, at least ten seconds. */
    renewalDelay: () => Math.max(10_000, (expiresAt - now()) / 2),
    channels: () => request<BffChannel[]>('GET', '/channels'),
    transports: () => request<BffTransport[]>('GET', '/transports'),
    users: (ids: string[]) => request<CrmUser[]>('POST', '/users/lookup', { ids }),
    contacts: (chats: ContactKey[]) => request<Contact[]>('POST', '/contacts/lookup', { chats }),
    request,
  };
}

export type BffClient = ReturnType<typeof createBffClient>;
