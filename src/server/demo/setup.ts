import { eventNames } from '../../contract/events.ts';
import type { GatewayClient } from './crm-client.ts';

/** Where the demo CRM's server receives the account's webhooks. */
export const RECEIVER_PATH = '/demo/api/webhooks';

interface Subscription {
  id: string;
  url: string;
  event: string;
}

/**
 * What a CRM does once when it is set up with a gateway account, done by the demo on its first visit:
 * allow its pages to embed the frames, subscribe its webhook receiver to every event, and keep the signing
 * secret that proves a delivery came from the gateway.
 */
export async function setUpDemoCrm(api: GatewayClient, pageOrigins: string[], receiverUrl: string): Promise<{ signingSecret: string }> {
  const { origins } = await api.call<{ origins: string[] }>('GET', '/embedding/origins');
  const missing = pageOrigins.filter((origin) => !origins.includes(origin));
  if (missing.length > 0) await api.call('PUT', '/embedding/origins', { origins: [...origins, ...missing] });

  const subscriptions = await api.call<Subscription[]>('GET', '/webhooks');
  // A receiver the demo left at another address (the gateway ran on another port) would only collect failures.
  const stale = subscriptions.filter((s) => s.url.endsWith(RECEIVER_PATH) && s.url !== receiverUrl);
  if (stale.length > 0) await api.call('DELETE', '/webhooks', { data: stale.map(({ id }) => ({ id })) });
  const subscribed = new Set(subscriptions.filter((s) => s.url === receiverUrl).map((s) => s.event));
  const wanted = eventNames.filter((event) => !subscribed.has(event));
  if (wanted.length > 0) await api.call('POST', '/webhooks', { data: wanted.map((event) => ({ url: receiverUrl, event })) });

  const { secret } = await api.call<{ secret: string }>('GET', '/webhooks/signing-secret');
  return { signingSecret: secret };
}

/** The address the gateway's own calls reach it at: a wildcard listening address is reached on loopback. */
export function reachableBase(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

/** The origins a browser may show the demo under: the public address, and loopback spelled either way. */
export function demoPageOrigins(publicUrl: string, base: string): string[] {
  const origins = new Set([new URL(publicUrl).origin, new URL(base).origin]);
  for (const origin of [...origins]) {
    const url = new URL(origin);
    if (url.hostname === 'localhost') origins.add(origin.replace('//localhost', '//127.0.0.1'));
    if (url.hostname === '127.0.0.1') origins.add(origin.replace('//127.0.0.1', '//localhost'));
  }
  return [...origins];
}
