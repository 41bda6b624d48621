import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LogEntry {
  seq: number;
  at: string;
  event: string;
  verified: boolean;
  body: unknown;
}

const KEPT = 200;
/** Standard Webhooks: deliveries older than this are refused as replays. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks a delivery as the Standard Webhooks libraries do: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`
 * under the secret's bytes (after `whsec_`), against each signature the header lists (two while a secret rotates).
 */
export function signatureValid(secret: string, headers: Record<string, string | string[] | undefined>, rawBody: string, nowSeconds: number): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** What the log keeps at most, of deliveries and of their bodies' bytes: the oldest go first. */
export const KEPT_BYTES = 1024 * 1024;

export type WebhookLog = ReturnType<typeof webhookLog>;

/**
 * The last deliveries the demo's receiver took, for the page's log (kept in memory; a restart starts afresh): only
 * signed ones reach it, and at most `KEPT` of them holding at most `KEPT_BYTES`.
 */
export function webhookLog() {
  const entries: (LogEntry & { bytes: number })[] = [];
  let seq = 0;
  let bytes = 0;
  return {
    add(event: string, body: unknown, at: Date, size: number): void {
      entries.push({ seq: ++seq, at: at.toISOString(), event, verified: true, body, bytes: size });
      bytes += size;
      while (entries.length > KEPT || (bytes > KEPT_BYTES && entries.length > 1)) bytes -= entries.shift()!.bytes;
    },
    after(position: number): LogEntry[] {
      return entries.filter((entry) => entry.seq > position).map(({ bytes: _bytes, ...entry }) => entry);
    },
  };
}
