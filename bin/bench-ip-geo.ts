/**
 * IP geography benchmark (a script, not a test): prints, in this process, what the first lookup of
 * each family costs (reading its data files), the mean per lookup afterwards over random public
 * addresses, the memory the data takes, and the size the data files add to a Lambda package.
 *
 *   npx tsx bin/bench-ip-geo.ts
 *   BENCH_V4=100000 BENCH_V6=20000 npx tsx bin/bench-ip-geo.ts
 *   GATEHOUSE_IP_DB_DIR=/path/to/release/files npx tsx bin/bench-ip-geo.ts
 *
 * The first lookups read the files from the OS page cache when they were read recently; a Lambda
 * cold start reads them from its own disk, so expect its first lookup to be slower than here.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { IP_GEO_DATA_FILES, ipGeoSource, lookupIp, type IpGeo } from '../shared/adapters/ip-geo.js';
import { seededRandom } from '../test/support/seeded-random.js';

const V4 = Number(process.env.BENCH_V4 ?? 10_000);
const V6 = Number(process.env.BENCH_V6 ?? 2_000);
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function memory(label: string): void {
  const m = process.memoryUsage();
  console.log(`  memory ${label}: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)}, buffers ${mb(m.arrayBuffers)}`);
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

/** Mean time per lookup over `ips`, after one untimed pass; and how many had a country and an AS. */
async function meanLookup(ips: string[]): Promise<{ us: number; country: number; asn: number }> {
  for (const ip of ips) await lookupIp(ip);
  const started = performance.now();
  let country = 0;
  let asn = 0;
  for (const ip of ips) {
    const geo: IpGeo = await lookupIp(ip);
    if (geo.country) country++;
    if (geo.asn !== null) asn++;
  }
  return { us: ((performance.now() - started) * 1000) / ips.length, country, asn };
}

/** Random addresses that are public (the others never reach the data). */
async function publicAddresses(count: number, make: () => string): Promise<string[]> {
  const ips: string[] = [];
  while (ips.length < count) {
    const ip = make();
    if ((await lookupIp(ip)).scope === 'public') ips.push(ip);
  }
  return ips;
}

const source = await ipGeoSource();
console.log(`data: ASN ${source.asn}, country ${source.country}`);
const require = createRequire(import.meta.url);
const dataPath = ({ pkg, file }: { pkg: string; file: string }) =>
  process.env.GATEHOUSE_IP_DB_DIR ? join(process.env.GATEHOUSE_IP_DB_DIR, file) : require.resolve(`${pkg}/${file}`);
let total = 0;
for (const data of Object.values(IP_GEO_DATA_FILES)) {
  const size = statSync(dataPath(data)).size;
  total += size;
  console.log(`  ${data.file}: ${mb(size)}`);
}
console.log(`  the four files add ${mb(total)} to a Lambda package (unzipped limit 250 MB)`);
memory('before any lookup');

const [first4, load4] = await timed(() => lookupIp('8.8.8.8'));
console.log(`first IPv4 lookup (reads the IPv4 files): ${load4.toFixed(1)} ms -> ${JSON.stringify(first4)}`);
memory('after the IPv4 data');
const [first6, load6] = await timed(() => lookupIp('2001:4860:4860::8888'));
console.log(`first IPv6 lookup (reads the IPv6 files): ${load6.toFixed(1)} ms -> ${JSON.stringify(first6)}`);
memory('after the IPv6 data');

const next = seededRandom(1);
const v4 = await publicAddresses(V4, () => [0, 0, 0, 0].map(() => Math.floor(next() * 256)).join('.'));
const r4 = await meanLookup(v4);
console.log(
  `IPv4: ${V4} random public addresses, mean ${r4.us.toFixed(1)} µs per lookup ` +
    `(${((100 * r4.country) / V4).toFixed(0)}% with a country, ${((100 * r4.asn) / V4).toFixed(0)}% with an AS)`,
);
// IPv6 addresses drawn at random from the whole space are almost never announced; these are drawn
// inside random rows of the ASN file instead (the bench reads it for that; the adapter does not).
const v6Rows = readFileSync(dataPath(IP_GEO_DATA_FILES.asnIpv6), 'latin1').split('\n').filter(Boolean);
const v6Text = (value: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
const v6 = await publicAddresses(V6, () => {
  const [start, end] = v6Rows[Math.floor(next() * v6Rows.length)]!.split(',', 2).map(BigInt) as [bigint, bigint];
  return v6Text(start + ((end - start) * BigInt(Math.floor(next() * 1e6))) / 1_000_000n);
});
const r6 = await meanLookup(v6);
console.log(
  `IPv6: ${V6} random public addresses inside announced ranges, mean ${r6.us.toFixed(1)} µs per lookup ` +
    `(${((100 * r6.country) / V6).toFixed(0)}% with a country, ${((100 * r6.asn) / V6).toFixed(0)}% with an AS)`,
);
// And at random in 2001::/16 to 2c0f::/16, where the RIRs allocate: mostly misses.
const hex = () => Math.floor(next() * 0x10000).toString(16);
const v6Random = await publicAddresses(V6, () =>
  [(0x2001 + Math.floor(next() * (0x2c0f - 0x2001))).toString(16), ...Array.from({ length: 7 }, hex)].join(':'),
);
const r6Random = await meanLookup(v6Random);
console.log(
  `IPv6: ${V6} random public addresses in 2001::-2c0f::, mean ${r6Random.us.toFixed(1)} µs per lookup ` +
    `(${((100 * r6Random.country) / V6).toFixed(0)}% with a country, ${((100 * r6Random.asn) / V6).toFixed(0)}% with an AS)`,
);
memory('at the end');
