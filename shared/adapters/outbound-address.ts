/**
 * Whether the service may call an address a tenant gave (webhook deliveries and tests,
 * integrations): none on a private network. This module judges; the calls themselves are made by
 * shared/adapters/outbound-http.ts, which judges by the same rules again at connect time.
 * - when the address is saved, `checkOutboundUrl` resolves its host and refuses it if any address
 *   is not public unicast (loopback, private, link-local with the metadata address
 *   169.254.169.254, unique-local, multicast, unspecified, reserved, carrier-grade NAT, ...), for
 *   IPv4 and IPv6; an IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible,
 *   IPv4-translated, NAT64, 6to4, Teredo) is refused whatever it carries, and the refusal names the
 *   carried address when that is not public;
 * - when it is called, `refusalOf` judges the literal, or every address the name resolves to then
 *   (`hostRefusal`).
 * Loopback (127.0.0.0/8 and ::1 as such, never carried in another IPv6 form) is allowed only when
 * the deployment says so (`OUTBOUND_ALLOW_LOOPBACK`, for receivers on the developer's machine
 * under `npm start`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ipv6Value } from './ip-address.js';

export interface OutboundPolicy {
  /** Loopback receivers (127.0.0.0/8, ::1) over plain http or https; never in AWS. */
  allowLoopback: boolean;
  /** Added to the refusal of a loopback address: how this deployment would allow one (local runs only). */
  loopbackHint?: string;
}

/** The address is refused before anything is sent; `reason` says why, for the caller's 422. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
}

/** Resolves a host name to all its addresses (injectable, so tests can stand in for DNS). */
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, order: 'verbatim' })).map((a) => a.address);

/**
 * An address as ipaddr.js sees it, or null when Node's isIP does not take it. IPv6 is handed over
 * as its eight groups: ipaddr.js reads the text `::a.b.c.d` (IPv4-compatible) as
 * `::ffff:a.b.c.d` (IPv4-mapped), and Node writes the IPv4-compatible addresses a name resolves to
 * in exactly that text.
 */
function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return null;
  const value = ipv6Value(address.replace(/%.*$/, ''));
  return new ipaddr.IPv6(Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn)));
}

const ipv4Of = (bits: bigint): ipaddr.IPv4 => {
  const n = Number(bits & 0xffffffffn);
  return new ipaddr.IPv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
};

/**
 * The IPv6 forms that carry an IPv4 address, and the IPv4 addresses each carries (none for
 * local-use NAT64, where its place depends on the operator's prefix length, RFC 6052 2.2). Packets
 * to these reach the IPv4 address through the host's own stack, a translator or a tunnel, so the
 * IPv6 range says nothing of where they land. None is called, whatever it carries: a receiver is
 * reachable at its IPv4 address or its name, no DNS64 stands between the functions and the
 * internet, and request-filtering-agent refuses every one of these ranges at connect time but the
 * IPv4-compatible one (public unicast in ipaddr.js's table), so a URL saved with one never delivers.
 */
function carriedIPv4(address: ipaddr.IPv6): { form: string; carried: ipaddr.IPv4[] } | null {
  const value = address.parts.reduce((v, part) => (v << 16n) | BigInt(part), 0n);
  const top96 = value >> 32n;
  if (top96 === 0xffffn) return { form: 'IPv4-mapped, ::ffff:0:0/96', carried: [ipv4Of(value)] };
  // :: and ::1 are the unspecified and loopback addresses, judged as such.
  if (top96 === 0n) return value > 1n ? { form: 'IPv4-compatible, ::/96', carried: [ipv4Of(value)] } : null;
  if (top96 === 0xffff0000n) return { form: 'IPv4-translated, ::ffff:0:0:0/96', carried: [ipv4Of(value)] };
  if (top96 === 0x64ff9b0000000000000000n) return { form: 'NAT64, 64:ff9b::/96', carried: [ipv4Of(value)] };
  if (value >> 80n === 0x64ff9b0001n) return { form: 'local-use NAT64, 64:ff9b:1::/48', carried: [] };
  if (value >> 112n === 0x2002n) return { form: '6to4, 2002::/16', carried: [ipv4Of(value >> 80n)] };
  // Teredo: the server's address, and the client's with every bit inverted.
  if (value >> 96n === 0x20010000n)
    return { form: 'Teredo, 2001::/32', carried: [ipv4Of(value >> 64n), ipv4Of(~value)] };
  return null;
}

/** Why `address` may not be called under `policy`, or null when it may. */
export function refusalOf(address: string, policy: OutboundPolicy): string | null {
  const parsed = parseIp(address);
  if (!parsed) return `${address} is not an IP address`;
  const carrier = parsed.kind() === 'ipv6' ? carriedIPv4(parsed as ipaddr.IPv6) : null;
  if (carrier) {
    const hidden = carrier.carried.find((v4) => v4.range() !== 'unicast');
    if (hidden) return `${address} embeds a ${hidden.range()} IPv4 address ${hidden.toString()} (${carrier.form})`;
    const carried = carrier.carried.map((v4) => v4.toString());
    const what =
      carried.length === 0
        ? 'an IPv4 address'
        : `the IPv4 address${carried.length > 1 ? 'es' : ''} ${carried.join(' and ')}`;
    return `${address} embeds ${what} (${carrier.form}); an address that embeds one is never called`;
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  const hint = range === 'loopback' && policy.loopbackHint ? ` (${policy.loopbackHint})` : '';
  return `${address} is a ${range} address, not a public one${hint}`;
}

/** Why a host that resolves to `addresses` may not be called, or null when it may. */
export function hostRefusal(host: string, addresses: readonly string[], policy: OutboundPolicy): string | null {
  if (addresses.length === 0) return `its host ${host} does not resolve`;
  for (const address of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) return `its host ${host} resolves to ${refusal}`;
  }
  return null;
}

const isLoopback = (address: string): boolean => parseIp(address)?.range() === 'loopback';

/**
 * The URL as it may be saved: http(s) only, https unless the host is loopback (and allowed), and
 * every address its host resolves to public. A user name and password in it are sent as HTTP Basic
 * authentication; whoever saves the URL keeps them sealed (shared/url-secrets.ts). Throws
 * OutboundRefusedError.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolve = systemResolve,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefusedError('must be an https URL');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new OutboundRefusedError(`its host ${host} does not resolve`);
    }
  }
  const refusal = hostRefusal(host, addresses, policy);
  if (refusal) throw new OutboundRefusedError(refusal);
  const loopbackOnly = addresses.every(isLoopback);
  if (url.protocol === 'http:' && !loopbackOnly)
    throw new OutboundRefusedError('must be an https URL (plain http only to a loopback receiver)');
  return url;
}
