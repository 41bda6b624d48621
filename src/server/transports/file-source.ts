import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { Readable } from 'node:stream';
import type { Dispatcher, buildConnector } from 'undici';
import { undici, lazyDispatcher } from './lazy-undici.ts';
import { guardedLookup, refusedLiteralHost } from '../core/webhooks/guarded-lookup.ts';
import type { HostResolver } from '../core/webhooks/url-policy.ts';

type Connector = buildConnector.connector;

/**
 * The files a send names, fetched from the CRM's address and streamed to a platform as an upload: what the live
 * drivers that upload (MAX, Telegram) share. The platform's own steps (where the upload goes, what it answers)
 * stay in each driver.
 */

/** The file's address could not be fetched for good (not found, refused, not an address the gateway may reach). */
export class SourceRefused extends Error {}
/** The file's address failed in a way that may pass (a timeout, a 5xx), or the platform's upload server did. */
export class TransferFailed extends Error {}
/** The file is larger than the platform takes, by the length its server gave or by the bytes that came. */
export class FileTooLarge extends Error {}
/** The platform's upload server refused the file itself (a 4xx other than a timeout or too many requests): trying again will not help. */
export class UploadRefused extends Error {}

/** Node's resolver: every address of both families, as the operating system orders them. */
const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The agent that fetches the files a send names (and the videos MAX points at). The CRM gives their URLs, so the
 * gateway would fetch whatever it is pointed at: like webhook deliveries, its connections refuse private, link-local
 * and reserved addresses (loopback only where allowed), on the address the socket then connects to. A name is checked
 * by the connection's lookup (see `guardedLookup`); an address written as the host is checked before connecting,
 * since no lookup runs for it. Every connection is checked, a redirect's included.
 */
export function sourceAgent(allowLoopback: boolean, resolve: HostResolver = systemResolver): Dispatcher {
  return lazyDispatcher(() => {
    const { Agent, buildConnector } = undici();
    const policy = { allowLoopback };
    const connector = buildConnector({ lookup: guardedLookup(resolve, policy, (message) => new SourceRefused(message)) as never });
    const connect: Connector = (options, callback) => {
      const host = options.hostname.includes(':') && !options.hostname.startsWith('[') ? `[${options.hostname}]` : options.hostname;
      const refused = refusedLiteralHost(new URL(`${options.protocol}//${host}`), policy);
      if (refused) return callback(new SourceRefused(refused), null);
      connector(options, callback);
    };
    return new Agent({ connect, keepAliveTimeout: 5_000 });
  });
}

export interface SourceOptions {
  agent: Dispatcher;
  allowLoopback: boolean;
  /** For each wait on a server: its headers, and each next part of a body. */
  timeoutMs: number;
  /** The send's deadline: it ends the fetch and the upload wherever they stand. */
  signal?: AbortSignal;
}

/** A file the CRM named, coming: its body, and its type and length as its server says. */
export interface FetchedSource {
  body: Readable;
  contentType: string | null;
  length: number | null;
}

/**
 * A fetched file read whole into memory, for a platform that takes bytes rather than a stream (or a voice note that
 * is remuxed first). Stops at `limitBytes` whatever the server said of its length.
 */
export async function readWhole(source: FetchedSource, limitBytes: number, platform: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source.body) {
    length += (chunk as Buffer).length;
    if (length > limitBytes) {
      discard(source.body);
      throw new FileTooLarge(`the file is over ${limitBytes} bytes, which ${platform} does not take`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Closes a body not read to its end (its error for that is not one of the gateway's). */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * The file behind a URL the CRM gave, as a stream. Refused before anything is read when its server says it is
 * over `limitBytes` (which `platform`, named in the message, does not take).
 */
export async function fetchSource(url: string, options: SourceOptions, limitBytes: number, platform: string): Promise<FetchedSource> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceRefused('not a URL');
  }
  const refused = refusedLiteralHost(parsed, { allowLoopback: options.allowLoopback });
  if (refused) throw new SourceRefused(refused);
  const res = await undici().request(url, {
    method: 'GET',
    dispatcher: options.agent,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((err: unknown) => {
    throw err instanceof SourceRefused || (err as { cause?: unknown }).cause instanceof SourceRefused ? new SourceRefused(String(err)) : new TransferFailed('the file could not be fetched');
  });
  if (res.statusCode !== 200) {
    discard(res.body);
    // Redirects are not followed: the address they name was not checked.
    throw res.statusCode >= 500 || res.statusCode === 429 ? new TransferFailed(`the file's server answered ${res.statusCode}`) : new SourceRefused(`the file's server answered ${res.statusCode}`);
  }
  const type = res.headers['content-type'];
  const length = Number(res.headers['content-length']);
  if (Number.isFinite(length) && length > limitBytes) {
    discard(res.body);
    throw new FileTooLarge(`the file is ${length} bytes; ${platform} takes at most ${limitBytes}`);
  }
  return { body: res.body, contentType: typeof type === 'string' ? type.split(';')[0]!.trim() : null, length: Number.isFinite(length) ? length : null };
}

/** The type the file goes as: the one the send gives, else its server's (unless that says only "bytes"); null for neither. */
export function sourceTypeOf(file: { mimetype?: string }, source: Pick<FetchedSource, 'contentType'>): string | null {
  return file.mimetype ?? (source.contentType && source.contentType !== 'application/octet-stream' ? source.contentType : null);
}

/** The file's part of a form. */
export interface FilePart {
  /** The form field that holds it. */
  field: string;
  /** The name it is uploaded under. */
  name: string;
  contentType: string;
  source: FetchedSource;
}

/** A streamed multipart/form-data body, with what a failed upload needs to tell. */
export interface MultipartBody {
  body: Readable;
  headers: Record<string, string>;
  /** Whether the body failed because the file passed `limitBytes`. */
  overLimit(): boolean;
}

/** A form value as a header line may hold it: quotes, backslashes and line breaks would end or break the line. */
const headerSafe = (value: string) => value.replace(/["\r\n\\]/g, '_');

/**
 * A multipart/form-data body of text `fields` and then one file, streamed from its source rather than held in
 * memory. The bytes are counted as they pass: past `limitBytes` the body fails (and `overLimit()` says why).
 */
export function multipart(fields: Readonly<Record<string, string>>, file: FilePart, limitBytes: number, platform: string): MultipartBody {
  const boundary = `----gateway-upload-${randomBytes(12).toString('hex')}`;
  const head = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${headerSafe(name)}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${headerSafe(file.field)}"; filename="${headerSafe(file.name)}"\r\nContent-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let passed = 0;
  let over = false;
  async function* parts() {
    yield head;
    for await (const chunk of file.source.body) {
      passed += (chunk as Buffer).length;
      if (passed > limitBytes) {
        over = true;
        throw new FileTooLarge(`the file is over ${limitBytes} bytes, which ${platform} does not take`);
      }
      yield chunk as Buffer;
    }
    yield tail;
  }
  return {
    body: Readable.from(parts()),
    overLimit: () => over,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(file.source.length !== null ? { 'content-length': String(head.length + file.source.length + tail.length) } : {}),
    },
  };
}

/** The name a file is uploaded under: the one the send gives, else the last part of its address, else `file`. */
export function uploadNameOf(file: { url: string; name?: string }): string {
  if (file.name) return file.name;
  let last: string;
  try {
    last = new URL(file.url).pathname.split('/').pop() ?? '';
  } catch {
    return 'file';
  }
  try {
    return decodeURIComponent(last) || 'file';
  } catch {
    // A stray `%` (`50%.pdf`): not an encoded name.
    return last || 'file';
  }
}
