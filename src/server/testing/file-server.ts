import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseByteRange, type ByteRange } from '../transports/byte-ranges.ts';

/**
 * The bytes a range names in a file of `size` bytes (first and last, inclusive), as a server that takes ranges
 * reads it: a last position past the end stops at the end, a suffix longer than the file is all of it. Null when
 * no byte of the file is in it (a 416).
 */
export function partWithin(range: ByteRange, size: number): { first: number; last: number } | null {
  if ('suffix' in range) return range.suffix === 0 || size === 0 ? null : { first: Math.max(0, size - range.suffix), last: size - 1 };
  if (range.first >= size) return null;
  return { first: range.first, last: Math.min(range.last ?? size - 1, size - 1) };
}

/**
 * A file as the platforms' file servers (Telegram's, MAX's CDN) send it: a single range of it as a part (206), a
 * range past its end refused (416, with the file's length), anything else in `Range` ignored for the whole file, which
 * says ranges are taken. Unless ranges are `ignored`: then always the whole file, as a server that takes none answers.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, file: { content: Buffer; contentType: string }, ignored: boolean): void {
  const size = file.content.length;
  const range = ignored ? null : parseByteRange(req.headers.range);
  if (!range) return void res.writeHead(200, { 'content-type': file.contentType, 'content-length': size, ...(ignored ? {} : { 'accept-ranges': 'bytes' }) }).end(file.content);
  const part = partWithin(range, size);
  if (!part) return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
  const headers = { 'content-type': file.contentType, 'content-length': part.last - part.first + 1, 'content-range': `bytes ${part.first}-${part.last}/${size}`, 'accept-ranges': 'bytes' };
  res.writeHead(206, headers).end(file.content.subarray(part.first, part.last + 1));
}
