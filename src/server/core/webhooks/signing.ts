import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { memoized } from './memo.ts';

const PREFIX = 'whsec_';

/** A new Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
export const newSigningSecret = (): string => PREFIX + randomBytes(32).toString('base64');

/** Key objects of the secrets in use: every delivery is signed, and building the key each time cost as much as the HMAC. */
const keyOf = memoized((secret): KeyObject => createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')));

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key bytes. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one POST. Every secret in force signs it (after a rotation, the new and
 * the old one, space-separated), so receivers can switch secrets without missing a delivery.
 */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
