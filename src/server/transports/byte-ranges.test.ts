import { describe, expect, it } from 'vitest';
import { downloadedBody, forwardedRange, parseByteRange, parseContentRange, unsatisfiedLengthOf } from './byte-ranges.ts';

describe('a client’s Range header', () => {
  it('asks for one range: from a first to a last byte, from a first byte to the end, or the last bytes', () => {
    expect(parseByteRange('bytes=0-99')).toEqual({ first: 0, last: 99 });
    expect(parseByteRange('bytes=100-')).toEqual({ first: 100, last: null });
    expect(parseByteRange('bytes=-100')).toEqual({ suffix: 100 });
    expect(parseByteRange('bytes=7-7')).toEqual({ first: 7, last: 7 });
    // The unit is case-insensitive; spaces around the range are let pass.
    expect(parseByteRange('Bytes= 5-10 ')).toEqual({ first: 5, last: 10 });
    expect(parseByteRange('bytes=-0')).toEqual({ suffix: 0 });
  });

  it('is ignored when it asks for several ranges, another unit, or is not a range at all', () => {
    for (const header of [
      undefined,
      '',
      'bytes=0-99,200-299',
      'bytes=0-99, 200-',
      'bytes=0-99,',
      'items=0-9',
      'bytes 0-99',
      'bytes=-',
      'bytes=a-b',
      'bytes=1.5-2',
      'bytes=--5',
      'bytes=+1-2',
      'bytes=0x10-',
      // A last byte before the first makes the header invalid, not an empty range.
      'bytes=100-99',
      // More digits than any file's length (and than a number holds exactly).
      'bytes=0-1234567890123456',
    ]) {
      expect(parseByteRange(header), String(header)).toBeNull();
    }
  });

  it('goes on to the platform written plainly, and not at all when it is ignored', () => {
    expect(forwardedRange('BYTES=0-99')).toBe('bytes=0-99');
    expect(forwardedRange(' bytes= 100-')).toBe('bytes=100-');
    expect(forwardedRange('bytes=-100')).toBe('bytes=-100');
    expect(forwardedRange('bytes=0-1,5-6')).toBeNull();
    expect(forwardedRange(undefined)).toBeNull();
  });
});

describe('a platform’s content-range', () => {
  it('names a part and the whole length, which may be unknown', () => {
    expect(parseContentRange('bytes 0-99/1000')).toEqual({ first: 0, last: 99, size: 1000 });
    expect(parseContentRange('bytes 0-99/*')).toEqual({ first: 0, last: 99, size: null });
    for (const value of [undefined, 'bytes 99-0/1000', 'bytes 0-1000/1000', 'bytes */1000', 'bytes 0-99', 'items 0-9/10', ['bytes 0-1/2']]) {
      expect(parseContentRange(value), String(value)).toBeNull();
    }
  });

  it('of a refused range tells the whole length when it does', () => {
    expect(unsatisfiedLengthOf('bytes */1000')).toBe(1000);
    expect(unsatisfiedLengthOf('bytes */*')).toBeNull();
    expect(unsatisfiedLengthOf(undefined)).toBeNull();
  });
});

describe('a platform’s answer to a download', () => {
  it('is the whole file for a 200, whether or not a range was asked for, taking ranges only if it says so', () => {
    expect(downloadedBody(200, { 'content-length': '1000', 'accept-ranges': 'bytes' }, null)).toEqual({ size: 1000, acceptsRanges: true });
    expect(downloadedBody(200, { 'content-length': '1000' }, 'bytes=0-99')).toEqual({ size: 1000, acceptsRanges: false });
    expect(downloadedBody(200, { 'accept-ranges': 'none' }, null)).toEqual({ size: null, acceptsRanges: false });
    expect(downloadedBody(200, { 'content-length': 'lots' }, null)).toEqual({ size: null, acceptsRanges: false });
  });

  it('is a part for a 206 to a range, its length the part’s', () => {
    expect(downloadedBody(206, { 'content-range': 'bytes 100-199/1000', 'content-length': '100' }, 'bytes=100-199')).toEqual({
      size: 100,
      contentRange: 'bytes 100-199/1000',
      acceptsRanges: true,
    });
    expect(downloadedBody(206, { 'content-range': 'bytes 900-999/*', 'content-length': '100' }, 'bytes=-100')).toEqual({ size: 100, contentRange: 'bytes 900-999/*', acceptsRanges: true });
    // Without its length, nothing holds the body to the part: the platform is taken as failing.
    expect(downloadedBody(206, { 'content-range': 'bytes 900-999/1000' }, 'bytes=-100')).toBeNull();
  });

  it('is the refusal of the range for a 416, with the whole length when told', () => {
    expect(downloadedBody(416, { 'content-range': 'bytes */1000' }, 'bytes=5000-')).toEqual({ rangeNotSatisfiable: true, size: 1000 });
    expect(downloadedBody(416, {}, 'bytes=5000-')).toEqual({ rangeNotSatisfiable: true, size: null });
  });

  it('is nothing to pass on for a part nobody asked for, several parts, a length that disagrees, or another status', () => {
    expect(downloadedBody(206, { 'content-range': 'bytes 0-99/1000' }, null)).toBeNull();
    expect(downloadedBody(416, { 'content-range': 'bytes */1000' }, null)).toBeNull();
    expect(downloadedBody(206, { 'content-type': 'multipart/byteranges; boundary=x' }, 'bytes=0-99')).toBeNull();
    expect(downloadedBody(206, { 'content-range': 'bytes 0-99/1000', 'content-length': '1000' }, 'bytes=0-99')).toBeNull();
    expect(downloadedBody(500, {}, 'bytes=0-99')).toBeNull();
    expect(downloadedBody(404, {}, null)).toBeNull();
  });
});
