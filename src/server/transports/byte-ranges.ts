import type { IncomingHttpHeaders } from 'node:http';
import type { MessengerFile, MessengerFileRangeNotSatisfiable } from '../core/messages/ports.ts';

/**
 * Byte ranges (RFC 9110 §14) for the gateway's links to customers' files. Browsers ask for parts of a video or a
 * sound (Safari plays no video without them, and seeking needs them); the gateway keeps no copy of the files, so the
 * one range a client asks for is passed on to the platform, and the platform's partial answer back to the client.
 * Anything else in a `Range` header (several ranges, another unit, a malformed one) is ignored and the whole file
 * served, as RFC 9110 lets a server do with any range it does not take.
 */

/** One range: bytes `first` to `last` inclusive (to the end of the file when `last` is null), or the last `suffix` bytes. */
export type ByteRange = { first: number; last: number | null } | { suffix: number };

/** Up to 15 digits: any length a file has, and never past what a number holds exactly. */
const POSITION = '(\\d{0,15})';
/** `bytes=<first>-<last>`, either position left out (not both); the unit's case and spaces around the range are let pass. */
const SINGLE_RANGE = new RegExp(`^bytes=[ \\t]*${POSITION}-${POSITION}[ \\t]*$`, 'i');

/** The one range a `Range` header asks for; null for none, several, or a header RFC 9110 calls invalid. */
export function parseByteRange(header: string | undefined): ByteRange | null {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') return { suffix: Number(last) };
  if (last === '') return { first: Number(first), last: null };
  // A last position before the first makes the whole header invalid, not an empty range.
  return Number(last) < Number(first) ? null : { first: Number(first), last: Number(last) };
}

/** The range as a `Range` header says it. */
function rangeHeaderOf(range: ByteRange): string {
  return 'suffix' in range ? `bytes=-${range.suffix}` : `bytes=${range.first}-${range.last ?? ''}`;
}

/** What a client's `Range` header asks a platform for: its one range, written plainly, or null to ask for the whole file. */
export function forwardedRange(header: string | undefined): string | null {
  const range = parseByteRange(header);
  return range ? rangeHeaderOf(range) : null;
}

/** A part's `content-range` (`bytes 0-99/2048`, the whole length `*` when unknown); null for anything else. */
export function parseContentRange(value: unknown): { first: number; last: number; size: number | null } | null {
  const match = typeof value === 'string' ? /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15}|\*)$/i.exec(value.trim()) : null;
  if (!match) return null;
  const first = Number(match[1]);
  const last = Number(match[2]);
  const size = match[3] === '*' ? null : Number(match[3]);
  if (last < first || (size !== null && last >= size)) return null;
  return { first, last, size };
}

/** The whole file's length a 416's `content-range` tells (`bytes *` and the length after a slash); null when it tells none. */
export function unsatisfiedLengthOf(value: unknown): number | null {
  const match = typeof value === 'string' ? /^bytes \*\/(\d{1,15})$/i.exec(value.trim()) : null;
  return match ? Number(match[1]) : null;
}

/** What the body of a platform's download answer is, as the gateway hands it on. */
export type DownloadedBody = Pick<MessengerFile, 'size' | 'contentRange' | 'acceptsRanges'>;

/**
 * A platform's answer to a download, read with the range it was asked for (`asked`, null for the whole file): for a
 * 200 the whole file (a platform may ignore a range); for a 206 the part its `content-range` names, whose length is
 * the part's; for a 416 the platform's refusal of the range. Null for any other answer, and for a partial one the
 * gateway could not pass on faithfully (a part nobody asked for, several parts, or a length that disagrees with its
 * range), which the opener treats as the platform failing.
 */
export function downloadedBody(statusCode: number, headers: IncomingHttpHeaders, asked: string | null): DownloadedBody | MessengerFileRangeNotSatisfiable | null {
  const told = Number(headers['content-length']);
  const length = headers['content-length'] !== undefined && Number.isSafeInteger(told) && told >= 0 ? told : null;
  if (statusCode === 200) return { size: length, acceptsRanges: /^\s*bytes\s*$/i.test(String(headers['accept-ranges'] ?? '')) };
  if (asked === null) return null;
  if (statusCode === 416) return { rangeNotSatisfiable: true, size: unsatisfiedLengthOf(headers['content-range']) };
  if (statusCode !== 206) return null;
  const part = parseContentRange(headers['content-range']);
  if (!part) return null;
  const partLength = part.last - part.first + 1;
  // Only a told length is held to by the client (undici ends a body that breaks it); without one, a body longer or
  // shorter than the part would go out under the part's length, and desynchronize the client's connection.
  if (length !== partLength) return null;
  return { size: partLength, contentRange: `bytes ${part.first}-${part.last}/${part.size ?? '*'}`, acceptsRanges: true };
}
