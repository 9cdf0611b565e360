/**
 * IP prefixes (`192.0.2.0/24`, `2001:db8::/32`) as numbers, for the BGP and RPKI feeds: parse,
 * canonical text, containment. Addresses are read by the repo's parser (shared/adapters/ip-address.ts,
 * Node's own `isIP` rules), so an address accepted here is one accepted everywhere else.
 */
import { parseAddress } from '../adapters/ip-address.js';

export interface IpPrefix {
  version: 4 | 6;
  /** The network address as a 32- or 128-bit number. */
  network: bigint;
  length: number;
  /** Canonical text: the network address as the repo prints it, then `/length` (`2a01:6e00::/48`). */
  text: string;
}

const bitsOf = (v: 4 | 6) => (v === 4 ? 32 : 128);
const mask = (v: 4 | 6, len: number) => ((1n << BigInt(len)) - 1n) << BigInt(bitsOf(v) - len);

/** A prefix, or null if the text is not one. Host bits must be zero (`10.0.0.1/8` is refused). */
export function parsePrefix(input: unknown): IpPrefix | null {
  if (typeof input !== 'string') return null;
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(input.trim());
  if (!m) return null;
  let addr;
  try {
    addr = parseAddress(m[1]!);
  } catch {
    return null;
  }
  // parseAddress maps ::ffff:a.b.c.d to IPv4; a prefix written in IPv6 stays IPv6.
  if (addr.version === 4 && m[1]!.includes(':')) return null;
  const length = Number(m[2]);
  const version = addr.version;
  if (length > bitsOf(version)) return null;
  const network = BigInt(addr.value);
  if ((network & ~mask(version, length) & ((1n << BigInt(bitsOf(version))) - 1n)) !== 0n) return null;
  return { version, network, length, text: `${addr.text}/${length}` };
}

/** The prefix `p` cut to `length` bits (its covering prefix of that length). */
export function truncate(p: IpPrefix, length: number): bigint {
  return p.network & mask(p.version, length);
}

/** True when `outer` covers `inner`: same family, outer no longer, inner inside it (equal counts). */
export function covers(outer: IpPrefix, inner: IpPrefix): boolean {
  return (
    outer.version === inner.version && outer.length <= inner.length && truncate(inner, outer.length) === outer.network
  );
}
