/**
 * IP addresses for the offline geography (shared/adapters/ip-geo.ts): an address parsed as Node's
 * isIP accepts it, to a number (IPv4) or a bigint (IPv6) and its canonical text, and the scope of
 * the special-purpose block it falls in (IANA's registries), so that addresses that are not public
 * never reach the data. The outbound guard (shared/adapters/outbound-address.ts) reads IPv6 with
 * `ipv6Value` too: it takes `::a.b.c.d` for the IPv4-compatible address it is.
 */
import { isIP } from 'node:net';

export type IpScope =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link_local'
  | 'shared'
  | 'documentation'
  | 'multicast'
  | 'reserved'
  | 'unspecified';

interface Ipv4Address {
  version: 4;
  value: number;
  text: string;
}
interface Ipv6Address {
  version: 6;
  value: bigint;
  text: string;
}

/** Parses an address as Node's isIP accepts it (no shorthand IPv4 like `127.1`); a zone is dropped. */
export function parseAddress(input: string): Ipv4Address | Ipv6Address {
  const family = typeof input === 'string' ? isIP(input) : 0;
  if (family === 4) {
    const value = ipv4Value(input);
    return { version: 4, value, text: ipv4Text(value) };
  }
  if (family === 6) {
    const value = ipv6Value(input.replace(/%.*$/, ''));
    // ::ffff:0:0/96, IPv4-mapped: the IPv4 address it carries.
    if (value >> 32n === 0xffffn) return parseAddress(ipv4Text(Number(value & 0xffffffffn)));
    return { version: 6, value, text: ipv6Text(value) };
  }
  throw new Error(`not an IP address: ${JSON.stringify(String(input).slice(0, 100))}`);
}

function ipv4Value(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function ipv4Text(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** An IPv6 address (already checked by isIP) as a 128-bit number; a trailing dotted quad is allowed. */
export function ipv6Value(text: string): bigint {
  let groups: number[];
  const toGroups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((piece) => {
      if (!piece.includes('.')) return [parseInt(piece, 16)];
      const v4 = ipv4Value(piece);
      return [v4 >>> 16, v4 & 0xffff];
    });
  };
  const gap = text.indexOf('::');
  if (gap === -1) groups = toGroups(text);
  else {
    const head = toGroups(text.slice(0, gap));
    const tail = toGroups(text.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function ipv6Groups(value: bigint): number[] {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  return groups;
}

export function fullIpv6(value: bigint): string {
  return ipv6Groups(value)
    .map((group) => group.toString(16))
    .join(':');
}

/** RFC 5952 text: lower case, no leading zeros, the first longest run of two or more zero groups as `::`. */
function ipv6Text(value: bigint): string {
  const groups = ipv6Groups(value);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]) => list.map((group) => group.toString(16)).join(':');
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/** Special-purpose blocks (IANA's IPv4 registry, RFC 6890 and successors), most specific first. */
const IPV4_BLOCKS: ReadonlyArray<readonly [string, number, IpScope]> = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'documentation'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking (RFC 2544)
  ['198.51.100.0', 24, 'documentation'], // TEST-NET-2
  ['203.0.113.0', 24, 'documentation'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use, and 255.255.255.255 (limited broadcast)
];

/** IANA's IPv6 registry, most specific first. The IPv4-mapped block never gets here. */
const IPV6_BLOCKS: ReadonlyArray<readonly [string, number, IpScope]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'public'], // NAT64 well-known prefix: globally reachable (RFC 6052)
  ['64:ff9b:1::', 48, 'reserved'], // NAT64 local use (RFC 8215)
  ['100::', 64, 'reserved'], // discard-only (RFC 6666)
  ['2001:2::', 48, 'reserved'], // benchmarking (RFC 5180)
  ['2001:10::', 28, 'reserved'], // ORCHID, deprecated
  ['2001:20::', 28, 'reserved'], // ORCHIDv2 (RFC 7343)
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'], // RFC 9637
  ['5f00::', 16, 'reserved'], // SRv6 SIDs (RFC 9602)
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link_local'],
  ['ff00::', 8, 'multicast'],
  ['2000::', 3, 'public'], // global unicast; all else is unassigned or reserved by the IETF
];

const ipv4Blocks = IPV4_BLOCKS.map(([base, bits, scope]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { network: ipv4Value(base) & mask, mask, scope };
});

const ipv6Blocks = IPV6_BLOCKS.map(([base, bits, scope]) => {
  const mask = ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
  return { network: ipv6Value(base) & mask, mask, scope };
});

export function scopeOfIpv4(value: number): IpScope {
  for (const block of ipv4Blocks) if ((value & block.mask) >>> 0 === block.network >>> 0) return block.scope;
  return 'public';
}

export function scopeOfIpv6(value: bigint): IpScope {
  for (const block of ipv6Blocks) if ((value & block.mask) === block.network) return block.scope;
  return 'reserved';
}
