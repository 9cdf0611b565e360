/**
 * The offline IP geography adapter against the real package data: the ranges it searches are in
 * the order the search needs, its byte-offset search agrees with a plain search over the parsed
 * file, well-known resolvers get their well-known AS, addresses that are not public never reach
 * the data, and GATEHOUSE_IP_DB_DIR is read (with the files the stack copies, and with files of
 * our own) and fails clearly when the files are not there.
 *
 * Fresh data files are checked the same way before they are deployed (docs/ip-geography.md):
 * `GATEHOUSE_IP_DB_DIR=/path/to/files npx vitest run test/unit/ip-geo.test.ts` runs the file
 * checks and the well-known lookups on those files instead of the installed packages.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IP_GEO_DATA_FILES, IP_GEO_PACKAGES, ipGeoSource, lookupIp, type IpGeo } from '../../shared/adapters/ip-geo.js';
import { IP_GEO_PACKAGE_FILES } from '../../lib/ip-geo-files.js';
import { seededRandom } from '../support/seeded-random.js';

const require = createRequire(import.meta.url);
const packageDir = (pkg: string) => dirname(require.resolve(`${pkg}/package.json`));
const packageVersion = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;

const ENV_NAMES = ['GATEHOUSE_IP_DB_DIR', 'GATEHOUSE_IP_DB_ASN_SOURCE', 'GATEHOUSE_IP_DB_COUNTRY_SOURCE'] as const;
const savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
function restoreEnv(): void {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
}
/** The files under test: GATEHOUSE_IP_DB_DIR's when the run is given one, else the packages'. */
const dataDir = savedEnv.GATEHOUSE_IP_DB_DIR || undefined;
const useDataUnderTest = () => {
  if (dataDir) process.env.GATEHOUSE_IP_DB_DIR = dataDir;
};
// The defaults (the installed packages) unless a test says otherwise.
for (const name of ENV_NAMES) delete process.env[name];
afterEach(() => {
  for (const name of ENV_NAMES) delete process.env[name];
});
afterAll(restoreEnv);

interface Row {
  start: bigint;
  end: bigint;
  asn: number;
  /** The line as in the file: its org field is read by csv-parse when the row is compared. */
  line: string;
}

/**
 * A whole ASN file, every line checked against the layout the adapter reads: three decimal
 * fields, then the org, bare (no comma or quote) or in double quotes with `""` for a quote.
 */
async function parseAsnFile(file: string): Promise<Row[]> {
  const text = await readFile(join(dataDir ?? packageDir(IP_GEO_PACKAGES.asn), file), 'utf8');
  const lines = text.split('\n');
  expect(lines.pop()).toBe(''); // ends with a newline
  const layout = /^(\d+),(\d+),(\d+),(?:"(?:[^"]|"")*"|[^",]*)$/;
  const misfits: string[] = [];
  const rows = lines.map((line, i) => {
    const match = layout.exec(line);
    if (!match) {
      misfits.push(`line ${i + 1}: ${line}`);
      return { start: -1n, end: -1n, asn: -1, line };
    }
    return { start: BigInt(match[1]!), end: BigInt(match[2]!), asn: Number(match[3]), line };
  });
  expect(misfits.slice(0, 10)).toEqual([]);
  return rows;
}

/** The org of a row, as a CSV parser reads it. */
const orgOf = (row: Row) => {
  const [record] = parse(row.line);
  expect(record, row.line).toHaveLength(4);
  return record![3] === '' ? null : record![3]!;
};

/** The row holding `value`, by bisection over the parsed rows (sorted by start and by end). */
function referenceRow(rows: Row[], value: bigint): Row | null {
  let lo = 0;
  let hi = rows.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.start <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const row = found === -1 ? null : rows[found]!;
  return row && value <= row.end ? row : null;
}

const ipv4Text = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
const ipv6Text = (value: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

describe.each([
  { version: 4 as const, file: IP_GEO_DATA_FILES.asnIpv4.file, text: ipv4Text, bits: 32n },
  { version: 6 as const, file: IP_GEO_DATA_FILES.asnIpv6.file, text: ipv6Text, bits: 128n },
])('the ASN file $file', ({ version, file, text, bits }) => {
  let rows: Row[];
  beforeAll(async () => {
    rows = await parseAsnFile(file);
  }, 60_000);
  beforeEach(useDataUnderTest);

  it('has inclusive ranges sorted by start and by end, as the search needs', () => {
    expect(rows.length).toBeGreaterThan(10_000);
    const broken: string[] = [];
    let overlaps = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.start > row.end) broken.push(`row ${i + 1}: start after end`);
      if (row.end >= 1n << bits) broken.push(`row ${i + 1}: past the address space`);
      const previous = rows[i - 1];
      if (!previous) continue;
      // Sorted by start and by end: the last row starting at or before an address is then the
      // only row that can hold it, even where two rows overlap.
      if (row.start <= previous.start) broken.push(`row ${i + 1}: starts at or before row ${i}`);
      if (row.end <= previous.end) broken.push(`row ${i + 1}: ends at or before row ${i}, inside it`);
      if (row.start <= previous.end) overlaps++;
    }
    expect(broken.slice(0, 10)).toEqual([]);
    // Overlaps are tolerated (the IPv4 file of 2.3.2026061719 has one, DoD 3607101440-3607166975,
    // answered with the later row), but they must stay rare for that to be a data slip.
    expect(overlaps).toBeLessThan(10);
  });

  it('gives the row that holds the address, for random addresses and at the edges of rows', async () => {
    const next = seededRandom(version);
    const values: bigint[] = [rows[0]!.start, rows[0]!.start - 1n, rows.at(-1)!.end, rows.at(-1)!.end + 1n];
    for (let i = 0; i < 400; i++) {
      const row = rows[Math.floor(next() * rows.length)]!;
      values.push(row.start, row.end, row.start - 1n, row.end + 1n);
      if (version === 4) values.push(BigInt(Math.floor(next() * 2 ** 32)));
      // Inside the row: its start plus a random fraction of its length.
      values.push(row.start + ((row.end - row.start) * BigInt(Math.floor(next() * 1000))) / 1000n);
    }
    let compared = 0;
    for (const value of values) {
      const geo = await lookupIp(text(value));
      if (geo.scope !== 'public') {
        expect(geo, text(value)).toMatchObject({ asn: null, as_org: null, country: null });
        continue;
      }
      const row = referenceRow(rows, value);
      expect({ ip: text(value), asn: geo.asn, as_org: geo.as_org }).toEqual({
        ip: text(value),
        asn: row?.asn ?? null,
        as_org: row ? orgOf(row) : null,
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(values.length * 0.9);
  }, 60_000);

  it('answers no AS for addresses between announced ranges', async () => {
    const gaps: bigint[] = [];
    for (let i = 1; i < rows.length && gaps.length < 50; i += 97) {
      const before = rows[i - 1]!;
      if (rows[i]!.start > before.end + 1n) gaps.push((before.end + 1n + rows[i]!.start - 1n) / 2n);
    }
    expect(gaps.length).toBeGreaterThan(20);
    let publicGaps = 0;
    for (const value of gaps) {
      const geo = await lookupIp(text(value));
      expect(geo.asn, text(value)).toBeNull();
      expect(geo.as_org, text(value)).toBeNull();
      if (geo.scope === 'public') publicGaps++;
    }
    expect(publicGaps).toBeGreaterThan(20);
  });
});

describe('well-known resolvers', () => {
  beforeEach(useDataUnderTest);
  it.each([
    ['8.8.8.8', 15169, /^Google LLC$/],
    ['8.8.4.4', 15169, /^Google LLC$/],
    ['2001:4860:4860::8888', 15169, /^Google LLC$/],
    ['1.1.1.1', 13335, /Cloudflare/],
    ['1.0.0.1', 13335, /Cloudflare/],
    ['2606:4700:4700::1111', 13335, /Cloudflare/],
    ['9.9.9.9', 19281, /Quad9/],
    ['149.112.112.112', 19281, /Quad9/],
    ['2620:fe::fe', 19281, /Quad9/],
  ])('%s is AS%i', async (ip, asn, org) => {
    const geo = await lookupIp(ip);
    expect(geo).toMatchObject({ ip, version: ip.includes(':') ? 6 : 4, scope: 'public', asn });
    expect(geo.as_org).toMatch(org);
    // Anycast: every one answers from many countries. The data gives the registration's country
    // (whois or a geofeed); for these that is a two-letter code (1.1.1.1 is AU: APNIC's block).
    expect(geo.country).toMatch(/^[A-Z]{2}$/);
  });

  it('places Google and Cloudflare IPv6, both registered with ARIN by US companies, in the US', async () => {
    for (const ip of ['8.8.8.8', '2001:4860:4860::8888', '2606:4700:4700::1111']) {
      expect((await lookupIp(ip)).country, ip).toBe('US');
    }
  });
});

describe('addresses that are not public', () => {
  const cases: [string, IpGeo['scope'], string?][] = [
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.200', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local', 'fe80::1'],
    ['febf:ffff::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:DB8:0:0:1:0:0:1', 'documentation', '2001:db8::1:0:0:1'],
    ['3fff::1', 'documentation'],
    ['::1.2.3.4', 'reserved', '::102:304'],
    ['100::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['4000::1', 'reserved'],
  ];
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(join(tmpdir(), 'gatehouse-ip-geo-empty-'));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it.each(cases)('%s is %s, with no country or AS, without reading any data', async (ip, scope, canonical) => {
    // No data at all: an answer proves the data was not read.
    process.env.GATEHOUSE_IP_DB_DIR = empty;
    expect(await lookupIp(ip)).toEqual({
      ip: canonical ?? ip,
      version: ip.includes(':') ? 6 : 4,
      scope,
      country: null,
      asn: null,
      as_org: null,
    });
  });

  it('keeps documentation addresses out of the data, which places 2001:db8::/32 in JP', async () => {
    const { Reader } = await import('mmdb-lib');
    const mmdb = await readFile(join(packageDir(IP_GEO_PACKAGES.country), IP_GEO_DATA_FILES.countryIpv6.file));
    // If this changes, the data was fixed; the scope check stays right either way.
    expect(new Reader(mmdb).get('2001:db8::1')).toEqual({ country_code: 'JP' });
    expect((await lookupIp('2001:db8::1')).country).toBeNull();
  });

  it('looks just past the edges of the blocks up as public', async () => {
    for (const ip of ['172.32.0.1', '100.128.0.1', '11.0.0.1', '192.169.0.1', '2000::1', '2001:db9::1']) {
      expect((await lookupIp(ip)).scope, ip).toBe('public');
    }
  });
});

describe('IPv4-mapped IPv6', () => {
  it.each(['::ffff:8.8.8.8', '::FFFF:8.8.8.8', '::ffff:808:808', '0:0:0:0:0:ffff:0808:0808'])(
    'looks %s up as 8.8.8.8',
    async (ip) => {
      expect(await lookupIp(ip)).toEqual(await lookupIp('8.8.8.8'));
    },
  );

  it('gives the IPv4 scope of a mapped private address', async () => {
    expect(await lookupIp('::ffff:10.0.0.1')).toMatchObject({
      ip: '10.0.0.1',
      version: 4,
      scope: 'private',
      asn: null,
    });
  });
});

describe('input that is not an IP address', () => {
  it.each([
    '',
    'localhost',
    '8.8.8',
    '8.8.8.256',
    '01.2.3.4',
    ' 8.8.8.8',
    '8.8.8.8/32',
    '1::2::3',
    '[::1]',
    '::ffff:8.8.8.8.8',
    '12345::',
  ])('rejects %j', async (input) => {
    await expect(lookupIp(input)).rejects.toThrow(/^not an IP address/);
  });

  it('rejects with a plain Error', async () => {
    const error = await lookupIp('gatehouse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).constructor).toBe(Error);
  });
});

describe('provenance', () => {
  it('names the installed packages and their versions', async () => {
    expect(await ipGeoSource()).toEqual({
      asn: `@ip-location-db/asn@${packageVersion(IP_GEO_PACKAGES.asn)}`,
      country: `@ip-location-db/geo-whois-asn-country-mmdb@${packageVersion(IP_GEO_PACKAGES.country)}`,
    });
  });

  it('names GATEHOUSE_IP_DB_DIR when the data is elsewhere and no label says what it is', async () => {
    expect(await ipGeoSource({ GATEHOUSE_IP_DB_DIR: '/opt/ip-geo' })).toEqual({
      asn: 'GATEHOUSE_IP_DB_DIR',
      country: 'GATEHOUSE_IP_DB_DIR',
    });
  });
});

describe('GATEHOUSE_IP_DB_DIR', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-ip-geo-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('reads the files the stack copies next to the bundle, with the settings it gives', async () => {
    const dir = await tempDir();
    // As lib/function.ts copies them: flat, by their names in the packages.
    for (const file of IP_GEO_PACKAGE_FILES.files) await copyFile(require.resolve(file), join(dir, basename(file)));
    const expected = await Promise.all(['8.8.8.8', '2001:4860:4860::8888', '10.0.0.1'].map(lookupIp));
    Object.assign(process.env, IP_GEO_PACKAGE_FILES.environment, { GATEHOUSE_IP_DB_DIR: dir });
    expect(IP_GEO_PACKAGE_FILES.environment.GATEHOUSE_IP_DB_DIR).toBe('/var/task');
    expect(await Promise.all(['8.8.8.8', '2001:4860:4860::8888', '10.0.0.1'].map(lookupIp))).toEqual(expected);
    // The package.json files are not copied; the settings carry the provenance instead.
    const installed = await ipGeoSource({});
    expect(await ipGeoSource()).toEqual(installed);
  });

  it('reads files of its own: a header, CRLF, blank lines at the end, quoted names, the first and last rows, gaps', async () => {
    const dir = await tempDir();
    for (const { pkg, file } of [IP_GEO_DATA_FILES.countryIpv4, IP_GEO_DATA_FILES.countryIpv6]) {
      await copyFile(join(packageDir(pkg), file), join(dir, file));
    }
    const v4 = [
      'range_start,range_end,asn,org', // a header is skipped
      '134743040,134743295,64500,Example Resolver', // 8.8.4.0/24
      '134744064,134744319,64501,"Example ""Eight"", Inc."', // 8.8.8.0/24
      '151587072,151587327,64502,', // 9.9.9.0/24, no name
    ];
    // Blank lines at the end, as an editor may leave them.
    await writeFile(join(dir, IP_GEO_DATA_FILES.asnIpv4.file), `${v4.join('\r\n')}\r\n\r\n\r\n`);
    // 2001:4860::/32, one row and no trailing newline.
    await writeFile(
      join(dir, IP_GEO_DATA_FILES.asnIpv6.file),
      '42541956101370907050197289607612071936,42541956180599069564461627201156022271,64503,"Six, Ltd."',
    );
    process.env.GATEHOUSE_IP_DB_DIR = dir;

    expect(await lookupIp('8.8.4.0')).toMatchObject({ asn: 64500, as_org: 'Example Resolver' });
    expect(await lookupIp('8.8.4.255')).toMatchObject({ asn: 64500 });
    expect(await lookupIp('8.8.8.8')).toMatchObject({ asn: 64501, as_org: 'Example "Eight", Inc.', country: 'US' });
    expect(await lookupIp('8.8.8.255')).toMatchObject({ asn: 64501 });
    expect(await lookupIp('9.9.9.255')).toMatchObject({ asn: 64502, as_org: null });
    for (const ip of ['8.8.3.255', '8.8.5.0', '8.8.9.0', '9.9.10.0', '1.1.1.1', '223.1.1.1']) {
      expect(await lookupIp(ip), ip).toMatchObject({ scope: 'public', asn: null, as_org: null });
    }
    expect(await lookupIp('2001:4860:4860::8888')).toMatchObject({ asn: 64503, as_org: 'Six, Ltd.', country: 'US' });
    expect(await lookupIp('2001:4861::1')).toMatchObject({ asn: null });
    expect(await lookupIp('2001:485f:ffff::1')).toMatchObject({ asn: null });
  });

  it('fails, naming the missing files, when the directory lacks them; and works once they are there', async () => {
    const dir = await tempDir();
    process.env.GATEHOUSE_IP_DB_DIR = dir;
    const error = (await lookupIp('8.8.8.8').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`GATEHOUSE_IP_DB_DIR (${dir})`);
    for (const { file } of Object.values(IP_GEO_DATA_FILES)) expect(error.message).toContain(file);
    // An IPv6 lookup fails the same way: no family works with half the data.
    await expect(lookupIp('2001:4860:4860::8888')).rejects.toThrow(IP_GEO_DATA_FILES.countryIpv4.file);

    for (const file of IP_GEO_PACKAGE_FILES.files) await copyFile(require.resolve(file), join(dir, basename(file)));
    expect(await lookupIp('8.8.8.8')).toMatchObject({ asn: 15169 });
  });

  it('fails with the file named when an ASN file is not start,end,asn,org', async () => {
    const dir = await tempDir();
    for (const file of IP_GEO_PACKAGE_FILES.files) await copyFile(require.resolve(file), join(dir, basename(file)));
    await writeFile(join(dir, IP_GEO_DATA_FILES.asnIpv4.file), '1.0.0.0,1.0.0.255,13335,Cloudflare\n');
    process.env.GATEHOUSE_IP_DB_DIR = dir;
    await expect(lookupIp('1.0.0.1')).rejects.toThrow(join(dir, IP_GEO_DATA_FILES.asnIpv4.file));
  });
});
