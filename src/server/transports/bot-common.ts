import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { CredentialsCipher } from '../core/channels/ports.ts';

/**
 * Helpers the live bot drivers share: checking the secret a platform sends back with its updates, telling a file's
 * type by its name, the text of a pressed button, and a deadline for calls.
 */

/** Whether a header holds the expected secret, compared in constant time (a missing or repeated header does not). */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A file's type told by the extension of its name, from a table of known extensions. A Map, so that a name the
 * customer chose (`x.constructor`, `x.__proto__`) finds nothing rather than a property every object has.
 */
export function typeByName(name: string | null | undefined, types: ReadonlyMap<string, string>): string | undefined {
  if (!name || !name.includes('.')) return undefined;
  return types.get(name.slice(name.lastIndexOf('.') + 1).toLowerCase());
}

/**
 * The text of the button a press names, among the rows of the message's inline keyboard as the platform gives them
 * back: the first button whose `field` (Telegram's `callback_data`, MAX's `payload`) is `data`. Null when no button
 * has it (the keyboard changed since, or the message is older than the platform keeps) or its text is empty.
 */
export function pressedText(rows: unknown, data: string, field: string): string | null {
  if (!Array.isArray(rows)) return null;
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    for (const button of row as unknown[]) {
      if (typeof button !== 'object' || button === null) continue;
      const { [field]: given, text } = button as Record<string, unknown>;
      if (given === data) return typeof text === 'string' && text.length > 0 ? text : null;
    }
  }
  return null;
}

/** A call's deadline passed: it is given up (not made, when it was still waiting for its turn). */
export class DeadlinePassed extends Error {
  constructor(message = 'the deadline passed') {
    super(message);
    this.name = 'DeadlinePassed';
  }
}

/**
 * What `work` gives, unless `signal` aborts first: then DeadlinePassed (the work itself is ended by the same
 * signal, where it can be, and its own failure is no longer waited for). Without a signal, `work` as it is.
 */
export function untilDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new DeadlinePassed());
  }
  return new Promise<T>((resolve, reject) => {
    const passed = () => {
      work.catch(() => {});
      reject(new DeadlinePassed());
    };
    signal.addEventListener('abort', passed, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', passed));
  });
}

/** The bot's token among a channel's sealed credentials (`telegram_token`, `access_token`), or null when there is none. */
export function tokenFrom(cipher: CredentialsCipher, sealed: string | null | undefined, field: string): string | null {
  const token = sealed ? cipher.open(sealed)[field] : undefined;
  return typeof token === 'string' ? token : null;
}

/**
 * The gateway's own links to a platform's files (`<publicUrl>/hooks/<transport>/<channel>/files/<file id>?…`):
 * signed with a key of their own over the channel and the file, so that a link can be neither forged nor moved to
 * another channel or file; whoever holds one may download, as with a presigned URL.
 */
export function fileLinks(key: Buffer, publicUrl: string, transport: string) {
  const sign = (channelId: string, fileId: string) => createHmac('sha256', key).update(`${channelId}/${fileId}`).digest();
  return {
    /** The link to the file; `query` goes before the signature (it is not signed: it must open nothing). */
    url(channelId: string, fileId: string, query = ''): string {
      const signature = sign(channelId, fileId).toString('base64url');
      return `${hookUrl(publicUrl, transport, channelId)}/files/${encodeURIComponent(fileId)}?${query}signature=${signature}`;
    },
    /** Whether `signature` is the link's own, compared in constant time. */
    verify(channelId: string, fileId: string, signature: string): boolean {
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(channelId, fileId);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** What every live bot driver is given; each adds its platform's own limits. */
export interface LiveBotDeps {
  /** The platform's API base URL (its public one, or an emulator's in tests). */
  apiUrl: string;
  /** Where the platform posts a channel's updates: `<publicUrl>/hooks/<transport>/<channel id>`. */
  publicUrl: string;
  cipher: CredentialsCipher;
  /** The secret the platform sends back with every update of a channel. */
  hookSecret(channelId: string): string;
  /**
   * The platform no longer takes the channel's token: the channel is switched off until it is reconnected, unless
   * its credentials changed since (`sealed` is the refused one: a reinit may have raced the refused call).
   */
  revoked?(channelId: string, sealed: string | null): Promise<void>;
  /** Whether the files a send names may be fetched from loopback addresses (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopbackFiles?: boolean;
  /** The guarded agent files are fetched through, one for every live transport (one of the driver's own unless given). */
  filesAgent?: Dispatcher;
  timeoutMs?: number;
  /** How long a send or edit with a file may take in all (the driver's budget unless a test says). */
  sendBudgetMs?: number;
}

/** How a bot is told apart where its token is not kept (the pacer's queues, the file addresses kept): a digest of the token. */
export const botKeyOf = (token: string): string => createHash('sha256').update(token).digest('base64url').slice(0, 16);

/** Where a platform posts a channel's updates, under which the channel's file links also live. */
export const hookUrl = (publicUrl: string, transport: string, channelId: string): string => `${publicUrl}/hooks/${transport}/${channelId}`;

/** Seconds (or an HTTP date) in a Retry-After header, as milliseconds; null when it says neither. */
export function retryAfterOf(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A platform's answer read as JSON: an empty one as `{}`, one that is not JSON as undefined. */
export function parsedAnswer(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
