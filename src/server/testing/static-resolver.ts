import type { HostResolver } from '../core/webhooks/url-policy.ts';

/** A public address (TEST-NET-3) that every unnamed host resolves to in tests. */
export const PUBLIC_TEST_ADDRESS = '93.184.215.10';

/**
 * DNS for tests: the names in `table` resolve to their addresses, `localhost` to loopback, names under
 * `.invalid` (RFC 6761) to nothing, and every other name to a public test address.
 */
export function staticResolver(table: Record<string, string[]> = {}): HostResolver {
  return async (hostname) => {
    const name = hostname.toLowerCase();
    const known = table[name] ?? (name === 'localhost' ? ['127.0.0.1', '::1'] : undefined);
    if (known) return known.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (name.endsWith('.invalid')) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address: PUBLIC_TEST_ADDRESS, family: 4 }];
  };
}
