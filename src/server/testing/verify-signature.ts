import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from './webhook-receiver.ts';

/**
 * Verifies a received delivery with the public `standardwebhooks` library, as a receiver would. The
 * library refuses timestamps more than 5 minutes from its own clock; tests run the gateway on a manual
 * clock, so the check runs as of the delivery's own timestamp.
 */
export function verifiesWith(secret: string, request: Pick<ReceivedRequest, 'body' | 'headers'>): boolean {
  const realNow = Date.now;
  Date.now = () => Number(request.headers['webhook-timestamp']) * 1000;
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  } finally {
    Date.now = realNow;
  }
}
