import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address may not receive webhooks; `loopback` is the one class the operator can allow. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'unique-local' | 'reserved';

const v4Ranges: Record<AddressClass, string[]> = {
  loopback: ['127.0.0.0/8'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'],
  'link-local': ['169.254.0.0/16'],
  'unique-local': [],
  // "This network", IETF assignments, documentation (TEST-NET-1, -2, -3), the retired 6to4 relay, benchmarking,
  // multicast, future use and broadcast.
  reserved: ['0.0.0.0/8', '192.0.0.0/24', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '192.88.99.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'],
};

const v4Lists = Object.entries(v4Ranges).map(([name, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, prefix] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), 'ipv4');
  }
  return { name: name as AddressClass, list };
});

function classifyIpv4(address: string): AddressClass | null {
  if (address === '255.255.255.255') return 'reserved';
  return v4Lists.find(({ list }) => list.check(address, 'ipv4'))?.name ?? null;
}

/**
 * IPv6 by the ranges of IANA's special-purpose registry, as ipaddr.js names them: only ordinary global unicast may
 * receive webhooks. Every other range is refused, globally reachable or not (a webhook has no business with AMT
 * relays or ORCHID identifiers either); the IETF block 2001::/23 is refused whole, Teredo included. Ranges that
 * embed an IPv4 address (mapped, translated, NAT64) are refused too, named by that address's class where it has
 * one, so that `::ffff:127.0.0.1` reads as the loopback it is; 6to4 is judged by the IPv4 address it embeds.
 */
const v6Classes: Partial<Record<string, AddressClass>> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'unique-local',
};

/** The dummy prefix of RFC 9780 (100:0:0:1::/64), newer than ipaddr.js's table. */
const dummyPrefix = ipaddr.IPv6.parse('100:0:0:1::');

/** The IPv4 address in the low 32 bits of an IPv6 address. */
const low32 = (a: ipaddr.IPv6) => ipaddr.fromByteArray(a.toByteArray().slice(12)).toString();

function classifyIpv6(address: string): AddressClass | null {
  const parsed = ipaddr.IPv6.parse(address);
  const range = parsed.range();
  if (range === '6to4') {
    const bytes = parsed.toByteArray();
    return classifyIpv4(ipaddr.fromByteArray(bytes.slice(2, 6)).toString());
  }
  if (range === 'unicast') {
    if (parsed.match(dummyPrefix, 64)) return 'reserved';
    // IPv4-compatible (::a.b.c.d, deprecated): an IPv4 address in IPv6 dress, never a host of its own.
    if (parsed.parts.slice(0, 6).every((p) => p === 0)) return classifyIpv4(low32(parsed)) ?? 'reserved';
    return null;
  }
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return classifyIpv4(low32(parsed)) ?? 'reserved';
  return v6Classes[range] ?? 'reserved';
}

/** The class that makes an IP address unfit to receive webhooks, or null for a public address. */
export function classifyAddress(address: string): AddressClass | null {
  const family = isIP(address);
  if (family === 4) return classifyIpv4(address);
  if (family === 6) return classifyIpv6(address.replace(/%.*$/, ''));
  return 'reserved';
}

export interface AddressPolicy {
  /** Lets loopback addresses through (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

const describe: Record<AddressClass, string> = {
  loopback: 'loopback addresses are not allowed',
  private: 'private addresses are not allowed',
  'link-local': 'link-local addresses are not allowed',
  'unique-local': 'unique local addresses are not allowed',
  reserved: 'reserved addresses are not allowed',
};

/** Why this address may not receive webhooks under the policy, or null when it may. */
export function refuseAddress(address: string, policy: AddressPolicy): string | null {
  const cls = classifyAddress(address);
  if (cls === null || (cls === 'loopback' && policy.allowLoopback)) return null;
  return describe[cls];
}
