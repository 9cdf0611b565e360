/**
 * What a watchlist entry watches, written one way (docs/watchlist.md): each entity type's value
 * as an entry keeps it, whatever way it was sent, so the same entity is the same entry; and the
 * ranges of `ip` entries as the matcher compares them. Pure.
 */
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { invalid } from '../../errors.js';
import { COUNTRY_CODES } from '../../vocabulary/countries.js';
import type { WatchlistEntityType } from '../../vocabulary/watchlist.js';
import { mmsiOf, normaliseDomain, normaliseIp } from '../events/index.js';

/** An address or CIDR range: its network address (host bits clear) and prefix length. */
export interface IpRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
}

const fullBits = (address: ipaddr.IPv4 | ipaddr.IPv6) => (address.kind() === 'ipv4' ? 32 : 128);

/**
 * An IPv4 or IPv6 address, or a CIDR range of either, as a range (an address is its own /32 or
 * /128); an IPv4-mapped IPv6 address or range within `::ffff:0:0/96` as the IPv4 it maps (event
 * mentions name such addresses so too). Null when it is neither, or has a zone (`%eth0`).
 */
export function ipRangeOf(text: string): IpRange | null {
  const s = text.trim().toLowerCase();
  const slash = s.indexOf('/');
  const host = slash < 0 ? s : s.slice(0, slash);
  // normaliseIp (Node's isIP) decides what an address is: ipaddr.js alone would read 010.0.0.1 as octal.
  if (host.includes('%') || normaliseIp(host) === null) return null;
  let address = ipaddr.parse(host);
  const prefix = slash < 0 ? String(fullBits(address)) : s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return null;
  let bits = Number(prefix);
  if (bits > fullBits(address)) return null;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return { address: network, bits };
}

/** A range written one way: the address alone for a single one, IPv6 as RFC 5952 writes it (lower case, zeros compressed). */
export const ipRangeText = (range: IpRange): string =>
  range.bits === fullBits(range.address) ? range.address.toString() : `${range.address.toString()}/${range.bits}`;

/** Whether the address (an IpRange of one address) lies in the range. */
export const inRange = (address: IpRange, range: IpRange): boolean =>
  address.address.kind() === range.address.kind() && (address.address as ipaddr.IPv4).match(range.address, range.bits);

/** A line of the tenant's infrastructure files, as `<file_id>/<line_id>` (or `<file_id>:<line_id>`, as the lines' listing writes it). */
export function lineRefOf(text: string): { file_id: string; line_id: string } | null {
  const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})[/:](\d{1,6}(?:\.\d{1,6})?)$/i.exec(
    text.trim(),
  );
  return m ? { file_id: m[1]!.toLowerCase(), line_id: m[2]! } : null;
}

const AS_NUMBER = /^(?:as)?\s*(\d{1,10})$/i;
const MAX_ASN = 4_294_967_294;

const VALUE: ['body', 'value'] = ['body', 'value'];

/**
 * The value an entry keeps for what was sent, or 422 at `body.value` saying what it must be:
 * - `vessel`: an MMSI, nine digits (a number is padded: 2570001 is 002570001);
 * - `line`: `<file_id>/<line_id>`, written so (whether the tenant has it is for the caller to check);
 * - `ip`: an address or CIDR range, its host bits cleared (`10.1.2.3/8` is `10.0.0.0/8`), IPv6 in
 *   RFC 5952's form, IPv4-mapped IPv6 as IPv4, `/32` and `/128` as the address alone;
 * - `domain`: a host name, lower case, without a trailing dot, an internationalised one in its
 *   ASCII (punycode) form;
 * - `asn`: `AS64500` or `64500`, kept as the number (1 to 4,294,967,294);
 * - `country`: an ISO 3166-1 alpha-2 code, upper case.
 */
export function watchedValueOf(type: WatchlistEntityType, sent: string | number): string | number {
  if (typeof sent === 'number' && type !== 'vessel' && type !== 'asn')
    throw invalid(VALUE, `must be a string for a ${type}`, 'type');
  const text = String(sent).trim();
  switch (type) {
    case 'vessel': {
      const mmsi = mmsiOf({ mmsi: sent });
      if (!mmsi) throw invalid(VALUE, 'must be an MMSI: nine digits', 'mmsi');
      return mmsi;
    }
    case 'line': {
      const ref = lineRefOf(text);
      if (!ref)
        throw invalid(
          VALUE,
          'must name a line as <file_id>/<line_id>, as the infrastructure lines list them',
          'line_ref',
        );
      return `${ref.file_id}/${ref.line_id}`;
    }
    case 'ip': {
      const range = ipRangeOf(text);
      if (!range)
        throw invalid(
          VALUE,
          'must be an IPv4 or IPv6 address, or a CIDR range of either (10.0.0.0/8, 2001:db8::/32)',
          'ip',
        );
      return ipRangeText(range);
    }
    case 'domain': {
      const domain = normaliseDomain(domainToASCII(text));
      if (!domain)
        throw invalid(
          VALUE,
          'must be a host name with a dot (example.com); its subdomains are watched with it',
          'domain',
        );
      return domain;
    }
    case 'asn': {
      const m = AS_NUMBER.exec(text);
      const asn = m ? Number(m[1]) : 0;
      if (asn < 1 || asn > MAX_ASN)
        throw invalid(VALUE, 'must be an autonomous system number, AS64500 or 64500 (1 to 4294967294)', 'asn');
      return asn;
    }
    case 'country': {
      const code = text.toUpperCase();
      if (!COUNTRY_CODES.has(code)) {
        throw invalid(
          VALUE,
          `must be an ISO 3166-1 alpha-2 country code${code === 'UK' ? ' (the United Kingdom is GB)' : ''}`,
          'country',
        );
      }
      return code;
    }
  }
}

/**
 * At most `max` of a line's vertices, as `[lon, lat]`: all of them when it has no more, else `max`
 * taken evenly along the line by index, the first and last always among them.
 */
export function thinVertices(
  coordinates: readonly (readonly number[])[],
  max: number,
): { vertices: [number, number][]; thinned: boolean } {
  const pairs = coordinates.map((c): [number, number] => [c[0]!, c[1]!]);
  if (pairs.length <= max) return { vertices: pairs, thinned: false };
  const step = (pairs.length - 1) / (max - 1);
  return { vertices: Array.from({ length: max }, (_, i) => pairs[Math.round(i * step)]!), thinned: true };
}
