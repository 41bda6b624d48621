import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 that sorts after every id this process made before it. pg-boss breaks ties between jobs created
 * in one transaction (one `created_on`) by id, and a random id would let a chat's later message overtake
 * an earlier one of the same batch; the time prefix also keeps ids of one index page together.
 */
export function orderedId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const tail = randomBytes(8);
  tail[0] = (tail[0]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = `${ms.toString(16).padStart(12, '0')}7${sequence.toString(16).padStart(3, '0')}${tail.toString('hex')}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
