import { createHmac } from 'node:crypto';
import { sameSecret } from '../bot-common.ts';

/**
 * What every product of one Meta app shares at its callback addresses (`/hooks/instagram`, `/hooks/whatsapp`): the
 * check Meta makes of an address when it is saved in the app dashboard, and the signature of each post. Both are
 * documented (Meta's "Webhooks: Getting Started"): the check is a GET with `hub.mode=subscribe`, `hub.verify_token`
 * and `hub.challenge`, answered with the challenge; every post carries `X-Hub-Signature-256`, `sha256=` and the hex
 * HMAC-SHA256 of the body's exact bytes under the app secret.
 */

/** Meta's signature of a webhook's bytes. */
export const signatureOf = (rawBody: Buffer, appSecret: string): string => `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

/** Whether a post is signed by the app (compared in constant time): checked before anything of it is read. */
export const signedByApp = (headers: Record<string, string | string[] | undefined>, rawBody: Buffer, appSecret: string): boolean =>
  sameSecret(headers['x-hub-signature-256'], signatureOf(rawBody, appSecret));

/** The challenge to answer Meta's check of a callback address with, when it carries the app's verify token; else null. */
export function verifiedChallenge(query: Record<string, unknown>, verifyToken: string): string | null {
  const challenge = query['hub.challenge'];
  if (query['hub.mode'] !== 'subscribe' || typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 256) return null;
  return sameSecret(query['hub.verify_token'], verifyToken) ? challenge : null;
}
