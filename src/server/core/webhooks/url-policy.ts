import { isIP } from 'node:net';
import { refuseAddress, type AddressPolicy } from './address-policy.ts';

export type UrlPolicy = AddressPolicy;

/** Resolves a host name to every address it has (both families), as the delivery connection would. */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const MAX_URL_LENGTH = 2048;

const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** The URL's host without IPv6 brackets, lower case. */
export const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');

/**
 * Checks a subscription URL's shape: HTTPS only, no credentials, a fully qualified name or a public
 * address; loopback (then also over plain HTTP) only when allowed. Returns why it is refused, or null.
 */
export function checkSubscriptionUrl(raw: string, policy: UrlPolicy): string | null {
  if (raw.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme must be https';
  if (url.username || url.password) return 'must not carry credentials';
  const host = hostOf(url);
  if (isLoopbackName(host)) {
    return policy.allowLoopback ? null : 'loopback addresses are not allowed';
  }
  if (isIP(host) !== 0) {
    const refused = refuseAddress(host, policy);
    if (refused) return refused;
    if (refuseAddress(host, { allowLoopback: false }) !== null) return null; // allowed loopback: plain HTTP too
  } else if (!host.includes('.')) {
    return url.protocol === 'https:' ? 'host must be a fully qualified name' : 'scheme must be https';
  }
  if (url.protocol !== 'https:') return 'scheme must be https';
  return null;
}

/** Why the host's resolved addresses may not receive webhooks, or null when every one may. */
export async function checkResolvedHost(host: string, policy: UrlPolicy, resolve: HostResolver): Promise<string | null> {
  if (isIP(host) !== 0) return refuseAddress(host, policy);
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'host name does not resolve';
  }
  if (addresses.length === 0) return 'host name does not resolve';
  for (const { address } of addresses) {
    const refused = refuseAddress(address, policy);
    if (refused) return `resolves to ${address}: ${refused}`;
  }
  return null;
}

/** The whole subscribe-time check: the URL's shape, then where its host name points now. */
export async function checkSubscriptionTarget(raw: string, policy: UrlPolicy, resolve: HostResolver): Promise<string | null> {
  const problem = checkSubscriptionUrl(raw, policy);
  if (problem) return problem;
  const host = hostOf(new URL(raw));
  if (isLoopbackName(host)) return null;
  return checkResolvedHost(host, policy, resolve);
}
