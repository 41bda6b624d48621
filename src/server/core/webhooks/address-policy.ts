import { BlockList, isIP } from 'node:net';

/** Why an address may not receive webhooks; `loopback` is the one class the operator can allow. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'unique-local' | 'reserved';

const ranges: Record<AddressClass, { v4: string[]; v6: string[] }> = {
  loopback: { v4: ['127.0.0.0/8'], v6: ['::1/128'] },
  private: { v4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], v6: [] },
  'link-local': { v4: ['169.254.0.0/16'], v6: ['fe80::/10'] },
  'unique-local': { v4: [], v6: ['fc00::/7', 'fec0::/10'] },
  reserved: {
    // "This network", IETF assignments, documentation (TEST-NET-1, -2, -3), the retired 6to4 relay, benchmarking,
    // multicast, future use and broadcast; IPv6 unspecified, discard, local-use NAT64, documentation and multicast.
    v4: ['0.0.0.0/8', '192.0.0.0/24', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '192.88.99.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'],
    v6: ['::/128', '100::/64', '64:ff9b:1::/48', '2001:db8::/32', 'ff00::/8'],
  },
};

const lists = Object.entries(ranges).map(([name, { v4, v6 }]) => {
  const list = new BlockList();
  for (const cidr of v4) {
    const [net, prefix] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), 'ipv4');
  }
  for (const cidr of v6) {
    const [net, prefix] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), 'ipv6');
  }
  return { name: name as AddressClass, list };
});

/** The eight 16-bit groups of an IPv6 address (which must be valid). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4From = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4From(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4From(g[6]!, g[7]!); // ::a.b.c.d (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4From(g[6]!, g[7]!); // 64:ff9b::/96
  if (g[0] === 0x2002) return v4From(g[1]!, g[2]!); // 6to4
  return null;
}

/** The class that makes an IP address unfit to receive webhooks, or null for a public address. */
export function classifyAddress(address: string): AddressClass | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (family === 4 && address === '255.255.255.255') return 'reserved';
  return lists.find(({ list }) => list.check(address, type))?.name ?? null;
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
