/**
 * Offline IP geography for the threat score's "geography" factor: for an IP address, what kind of
 * address it is (public, private, loopback, ...) and, when public, its country (ISO 3166-1 alpha-2)
 * and its autonomous system (number and organisation). No network: the answers come from two
 * databases shipped as npm packages by ip-location-db (docs/ip-geography.md: sources, licences,
 * attribution, how to use fresher files):
 *
 * - ASN and organisation: `@ip-location-db/asn`, CSV files of inclusive numeric ranges
 *   (`start,end,asn,org`, the org quoted when it holds a comma or a quote). A file (21 MB for
 *   IPv4) is read into one Buffer on the first lookup of its family and binary-searched by byte
 *   offset; it is never parsed into objects. The search relies on the rows being sorted by start
 *   and by end (test/unit/ip-geo.test.ts checks the shipped files).
 * - Country: `@ip-location-db/geo-whois-asn-country-mmdb`, MaxMind DB files read with mmdb-lib.
 *
 * `GATEHOUSE_IP_DB_DIR` names a directory holding the four files flat (in Lambda the stack copies
 * them next to the bundle: lib/ip-geo-files.ts); unset, the installed packages are read. Addresses
 * that are not public get their scope and no country or AS, without touching the data. Everything
 * is loaded lazily and kept for the life of the process; importing this module reads nothing.
 */
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader, type Response } from 'mmdb-lib';

import { fullIpv6, parseAddress, scopeOfIpv4, scopeOfIpv6, type IpScope } from './ip-address.js';

export type { IpScope };

export interface IpGeo {
  /**
   * The address looked up, in canonical form: dotted quad, or RFC 5952 IPv6 (lower case, longest
   * zero run compressed, no zone). An IPv4-mapped IPv6 address (`::ffff:8.8.8.8`) is looked up as
   * its IPv4 address, which is given here with version 4.
   */
  ip: string;
  version: 4 | 6;
  scope: IpScope;
  /** ISO 3166-1 alpha-2 code, e.g. `US`; null when not public or not in the data. */
  country: string | null;
  /** Autonomous system number; null when not public or in no range of the data. */
  asn: number | null;
  /** The AS organisation as the data names it, e.g. `Google LLC`. */
  as_org: string | null;
}

/** Where the data comes from, for answers to cite: `<package>@<version>`, or the override's label. */
export interface IpGeoSource {
  asn: string;
  country: string;
}

/** The npm packages the data comes from. */
export const IP_GEO_PACKAGES = {
  asn: '@ip-location-db/asn',
  country: '@ip-location-db/geo-whois-asn-country-mmdb',
} as const;

/** The four data files, by the names they have in the packages and in `GATEHOUSE_IP_DB_DIR`. */
export const IP_GEO_DATA_FILES = {
  asnIpv4: { pkg: IP_GEO_PACKAGES.asn, file: 'asn-ipv4-num.csv' },
  asnIpv6: { pkg: IP_GEO_PACKAGES.asn, file: 'asn-ipv6-num.csv' },
  countryIpv4: { pkg: IP_GEO_PACKAGES.country, file: 'geo-whois-asn-country-ipv4.mmdb' },
  countryIpv6: { pkg: IP_GEO_PACKAGES.country, file: 'geo-whois-asn-country-ipv6.mmdb' },
} as const;

type DataFile = keyof typeof IP_GEO_DATA_FILES;
type Env = Record<string, string | undefined>;

// ---------------------------------------------------------------------------------------------
// Lookups

/** Looks up one address. Throws a plain Error when `ip` is not an IP address. */
export async function lookupIp(ip: string): Promise<IpGeo> {
  const address = parseAddress(ip);
  const scope = address.version === 4 ? scopeOfIpv4(address.value) : scopeOfIpv6(address.value);
  const geo: IpGeo = { ip: address.text, version: address.version, scope, country: null, asn: null, as_org: null };
  if (scope !== 'public') return geo;

  const paths = await dataPaths(process.env);
  if (address.version === 4) {
    const [table, reader] = await Promise.all([asnTable(paths.asnIpv4, 4), countryReader(paths.countryIpv4, 4)]);
    return { ...geo, ...findAsn(table, address.value), country: countryOf(reader, address.text) };
  }
  const [table, reader] = await Promise.all([asnTable(paths.asnIpv6, 6), countryReader(paths.countryIpv6, 6)]);
  // mmdb-lib parses the address itself; the full eight-group form is the one it cannot misread.
  return { ...geo, ...findAsn(table, address.value), country: countryOf(reader, fullIpv6(address.value)) };
}

/** The credit every answer that shows IP geography carries (CC BY 4.0; DB-IP's link-back): docs/ip-geography.md. */
export const IP_GEO_ATTRIBUTION =
  'IP geography: AS data from RouteViews (routeviews.org), the NRO (nro.net) and DB-IP (IP Geolocation by DB-IP, https://db-ip.com); country data from the NRO and published geofeeds; compiled and modified by ip-location-db (github.com/sapics/ip-location-db). Licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).';

/**
 * The data's provenance: `<package>@<version>` from the installed packages' package.json, or, when
 * `GATEHOUSE_IP_DB_DIR` is set, the labels `GATEHOUSE_IP_DB_ASN_SOURCE` and
 * `GATEHOUSE_IP_DB_COUNTRY_SOURCE` give (the stack sets them to the packages it copied), else
 * `GATEHOUSE_IP_DB_DIR`.
 */
export async function ipGeoSource(env: Env = process.env): Promise<IpGeoSource> {
  if (env.GATEHOUSE_IP_DB_DIR) {
    return {
      asn: env.GATEHOUSE_IP_DB_ASN_SOURCE || 'GATEHOUSE_IP_DB_DIR',
      country: env.GATEHOUSE_IP_DB_COUNTRY_SOURCE || 'GATEHOUSE_IP_DB_DIR',
    };
  }
  const label = async (pkg: string) => {
    const { name, version } = JSON.parse(await readFile(packageJsonPath(pkg), 'utf8')) as {
      name: string;
      version: string;
    };
    return `${name}@${version}`;
  };
  const [asn, country] = await Promise.all([label(IP_GEO_PACKAGES.asn), label(IP_GEO_PACKAGES.country)]);
  return { asn, country };
}

// ---------------------------------------------------------------------------------------------
// The data files

/**
 * The four files' paths, in `GATEHOUSE_IP_DB_DIR` or in the installed packages, once all four are
 * known to be there: a deployment that lacks the IPv6 files fails on its first lookup, not on its
 * first IPv6 lookup weeks later. Settled once per directory; a failure is not kept.
 */
function dataPaths(env: Env): Promise<Record<DataFile, string>> {
  const dir = env.GATEHOUSE_IP_DB_DIR || '';
  return once(checked, dir, async () => {
    const names = Object.keys(IP_GEO_DATA_FILES) as DataFile[];
    const paths = Object.fromEntries(
      names.map((name) => {
        const { pkg, file } = IP_GEO_DATA_FILES[name];
        return [name, dir ? join(dir, file) : join(dirname(packageJsonPath(pkg)), file)];
      }),
    ) as Record<DataFile, string>;
    const missing: string[] = [];
    await Promise.all(names.map((name) => access(paths[name]).catch(() => missing.push(IP_GEO_DATA_FILES[name].file))));
    if (missing.length > 0) {
      const where = dir ? `GATEHOUSE_IP_DB_DIR (${dir})` : 'the installed packages';
      throw new Error(`IP geography data missing in ${where}: ${missing.sort().join(', ')} not found`);
    }
    return paths;
  });
}

function packageJsonPath(pkg: string): string {
  try {
    return createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(`IP geography data: the package ${pkg} is not installed and GATEHOUSE_IP_DB_DIR is not set`);
  }
}

const checked = new Map<string, Promise<Record<DataFile, string>>>();
const tables = new Map<string, Promise<AsnTable>>();
const readers = new Map<string, Promise<Reader<Response>>>();

/** Memoises `load` under `key`; a failed load is forgotten, so the next call tries again. */
function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (!promise) {
    promise = load();
    cache.set(key, promise);
    promise.catch(() => cache.delete(key));
  }
  return promise;
}

function countryReader(path: string, version: 4 | 6): Promise<Reader<Response>> {
  return once(readers, path, async () => {
    const reader = new Reader<Response>(await readFile(path), { cache: new Map() });
    // An IPv4 database answers IPv6 lookups with whatever its tree holds for the first 32 bits.
    if (reader.metadata.ipVersion < version)
      throw new Error(`${path} is an IPv${reader.metadata.ipVersion} database, IPv${version} expected`);
    return reader;
  });
}

function countryOf(reader: Reader<Response>, ip: string): string | null {
  const code = (reader.get(ip) as { country_code?: unknown } | null)?.country_code;
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
}

// ---------------------------------------------------------------------------------------------
// The ASN CSV, searched in place

interface AsnTable {
  path: string;
  buffer: Buffer;
  /** Offset of the first data line (after a header line, if the file has one). */
  first: number;
  /** Offset just past the last data line's text (blank lines and line ends at the end left out). */
  end: number;
  /** Parses a range bound: a Number for IPv4 (below 2^32), a BigInt for IPv6. */
  bound: (from: number, to: number) => number | bigint;
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;

function asnTable(path: string, version: 4 | 6): Promise<AsnTable> {
  return once(tables, path, async () => {
    const buffer = await readFile(path);
    const bound =
      version === 4
        ? (from: number, to: number) => decimalNumber(buffer, from, to, path)
        : (from: number, to: number) => decimalBigInt(buffer, from, to, path);
    const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
    // A header line, if the file has one, is skipped.
    const first = isDigit(buffer[0]) ? 0 : buffer.indexOf(NEWLINE) + 1;
    if (!isDigit(buffer[first])) throw new Error(`${path}: no data (expected lines of start,end,asn,org)`);
    let end = buffer.length;
    while (end > first && (buffer[end - 1] === NEWLINE || buffer[end - 1] === 0x0d)) end--;
    const table: AsnTable = { path, buffer, first, end, bound };
    parseRow(table, first); // fails now, with the file named, if the format is not start,end,asn,org
    return table;
  });
}

/**
 * The row whose range holds `ip`, or nulls. Rows are sorted by start and by end, so the last row
 * that starts at or before `ip` is the only one that can hold it.
 */
function findAsn(table: AsnTable, ip: number | bigint): { asn: number | null; as_org: string | null } {
  const line = lastLineStartingAtOrBefore(table, ip);
  if (line === -1) return { asn: null, as_org: null };
  const row = parseRow(table, line);
  if (ip > row.end) return { asn: null, as_org: null };
  return { asn: row.asn, as_org: row.org };
}

/**
 * Binary search by byte offset. Invariant: the line at `lo` starts at or before `ip`, and every
 * line that begins at or after byte `hi` starts after it. Each step jumps to the middle, takes the
 * first line that begins there or later, and narrows to one side of it.
 */
function lastLineStartingAtOrBefore(table: AsnTable, ip: number | bigint): number {
  const { buffer } = table;
  let lo = table.first;
  if (startOf(table, lo) > ip) return -1;
  let hi = table.end;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2); // lo < mid < hi
    const line = buffer.indexOf(NEWLINE, mid - 1) + 1; // the first line beginning at or after mid
    if (line === 0 || line >= hi)
      hi = mid; // none in [mid, hi)
    else if (startOf(table, line) <= ip) lo = line;
    else hi = line;
  }
  return lo;
}

function startOf(table: AsnTable, line: number): number | bigint {
  const comma = table.buffer.indexOf(COMMA, line);
  if (comma === -1) throw formatError(table, line);
  return table.bound(line, comma);
}

interface AsnRow {
  start: number | bigint;
  end: number | bigint;
  asn: number;
  org: string | null;
}

function parseRow(table: AsnTable, line: number): AsnRow {
  const { buffer, path } = table;
  let lineEnd = buffer.indexOf(NEWLINE, line);
  if (lineEnd === -1 || lineEnd > table.end) lineEnd = table.end;
  const c1 = buffer.indexOf(COMMA, line);
  const c2 = c1 === -1 ? -1 : buffer.indexOf(COMMA, c1 + 1);
  const c3 = c2 === -1 ? -1 : buffer.indexOf(COMMA, c2 + 1);
  if (c1 === -1 || c3 === -1 || c3 >= lineEnd) throw formatError(table, line);
  let orgEnd = lineEnd;
  if (buffer[orgEnd - 1] === 0x0d) orgEnd--; // CRLF
  return {
    start: table.bound(line, c1),
    end: table.bound(c1 + 1, c2),
    asn: decimalNumber(buffer, c2 + 1, c3, path),
    org: unquote(buffer.toString('utf8', c3 + 1, orgEnd)),
  };
}

/** The org field as CSV writes it: bare, or in double quotes with `""` for a quote. */
function unquote(field: string): string | null {
  const text =
    field.length >= 2 && field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
  return text === '' ? null : text;
}

function decimalNumber(buffer: Buffer, from: number, to: number, path: string): number {
  if (to <= from) throw new Error(`${path}: empty number at byte ${from}`);
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = buffer[i]! - 0x30;
    if (digit < 0 || digit > 9) throw new Error(`${path}: not a number at byte ${from}`);
    value = value * 10 + digit;
  }
  return value;
}

function decimalBigInt(buffer: Buffer, from: number, to: number, path: string): bigint {
  const text = buffer.toString('latin1', from, to);
  if (!/^\d+$/.test(text)) throw new Error(`${path}: not a number at byte ${from}`);
  return BigInt(text);
}

function formatError(table: AsnTable, line: number): Error {
  const end = table.buffer.indexOf(NEWLINE, line);
  const text = table.buffer.toString('utf8', line, end === -1 ? table.buffer.length : end).slice(0, 120);
  return new Error(`${table.path}: line at byte ${line} is not start,end,asn,org: ${JSON.stringify(text)}`);
}
