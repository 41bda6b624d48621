import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { refuseAddress, type AddressPolicy } from './address-policy.ts';
import { hostOf, type HostResolver } from './url-policy.ts';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` a socket's connect takes (as `net.connect` and undici's `connect.lookup` call it). */
export type ConnectLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A connection's own name lookup that refuses private, link-local and reserved addresses (loopback only where the
 * policy allows it): the socket then goes to exactly the address that was checked, so a name cannot be re-pointed
 * between the check and the connect (DNS rebinding), and each new connection is checked again. Every address of
 * the asked family must pass, not only the first, since the connection may fall back to any of them. A refusal is
 * the error `refused` makes, so that each caller can tell it from a failed lookup.
 */
export function guardedLookup(resolve: HostResolver, policy: AddressPolicy, refused: (message: string) => Error): ConnectLookup {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
        for (const { address } of wanted) {
          const reason = refuseAddress(address, policy);
          if (reason) return callback(refused(`${hostname} resolves to ${address}: ${reason}`), []);
        }
        if (options.all) return callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/**
 * Why a URL whose host is an address is refused, or null (also for a name, which its lookup checks): no lookup
 * runs for an address, so it is checked before the request.
 */
export function refusedLiteralHost(url: URL, policy: AddressPolicy): string | null {
  const host = hostOf(url);
  if (isIP(host) === 0) return null;
  const reason = refuseAddress(host, policy);
  return reason ? `${host}: ${reason}` : null;
}
