import { isIP } from 'node:net';

export interface UrlPolicy {
  /** Lets `http://127.0.0.1…` and `http://localhost…` through (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

const MAX_URL_LENGTH = 2048;

const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Checks a subscription URL's shape at subscribe time: HTTPS only, no credentials, loopback only when
 * allowed. Returns the reason it is refused, or null. (Resolved-address checks belong to delivery.)
 */
export function checkSubscriptionUrl(raw: string, policy: UrlPolicy): string | null {
  if (raw.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.toLowerCase();
  const loopback = isLoopbackHost(host);
  if (loopback) {
    if (!policy.allowLoopback) return 'loopback addresses are not allowed';
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'scheme must be https';
  }
  if (url.protocol !== 'https:') return 'scheme must be https';
  if (isIP(host.replace(/^\[|\]$/g, '')) === 0 && !host.includes('.')) return 'host must be a fully qualified name';
  return null;
}
