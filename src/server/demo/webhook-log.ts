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

/** The last deliveries the demo's receiver took, for the page's log (kept in memory; a restart starts afresh). */
export function webhookLog() {
  const entries: LogEntry[] = [];
  let seq = 0;
  return {
    add(event: string, verified: boolean, body: unknown, at: Date): void {
      entries.push({ seq: ++seq, at: at.toISOString(), event, verified, body });
      if (entries.length > KEPT) entries.shift();
    },
    after(position: number): LogEntry[] {
      return entries.filter((entry) => entry.seq > position);
    },
  };
}
