import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { undici } from './lazy-undici.ts';
import type { MessengerFileRangeNotSatisfiable } from '../core/messages/ports.ts';
import { downloadedBody, type DownloadedBody } from './byte-ranges.ts';

/** A customer's file (or the part asked for) as a platform's file server sends it: the body and the type it told. */
export type PlatformDownload = DownloadedBody & { stream: Readable; toldType: string | null };

export interface DownloadOptions {
  /** For the headers, and for each next part of the body. */
  timeoutMs: number;
  /** What the server failing (or out of reach, or answering what cannot be passed on) is thrown as. */
  unavailable: () => Error;
  dispatcher?: Dispatcher;
  /** Redirects followed (never from https down to plain http); none unless given. */
  maxRedirects?: number;
  /** Headers the file server must be given (Meta's media: the business token); never sent on to a redirect's address. */
  headers?: Record<string, string>;
}

/**
 * Downloads a customer's file from its platform's file server, asking for the single range `range` (null for the
 * whole file): the body as the gateway hands it on, the server's refusal of the range, or null when the server no
 * longer has the file (404, 410).
 */
export async function downloadFromPlatform(url: string, range: string | null, options: DownloadOptions, hops = 0): Promise<PlatformDownload | MessengerFileRangeNotSatisfiable | null> {
  const res = await undici().request(url, {
    method: 'GET',
    headers: { ...(hops === 0 ? options.headers : {}), ...(range ? { range } : {}) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  }).catch(() => {
    throw options.unavailable();
  });
  const location = res.headers.location;
  if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && hops < (options.maxRedirects ?? 0)) {
    await res.body.dump();
    const next = new URL(location, url);
    // Never from https down to plain http: the file would cross the network readable and alterable.
    if (next.protocol !== 'https:' && !(next.protocol === 'http:' && new URL(url).protocol === 'http:')) throw options.unavailable();
    return downloadFromPlatform(next.toString(), range, options, hops + 1);
  }
  const gone = res.statusCode === 404 || res.statusCode === 410;
  const body = gone ? null : downloadedBody(res.statusCode, res.headers, range);
  if (!body || 'rangeNotSatisfiable' in body) {
    await res.body.dump();
    if (body) return body;
    if (gone) return null;
    throw options.unavailable();
  }
  const told = res.headers['content-type'];
  return { stream: res.body, toldType: typeof told === 'string' ? told.split(';')[0]!.trim() : null, ...body };
}
