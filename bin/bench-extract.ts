/**
 * Extraction benchmark (a script, not a test): prints how long extracting large infrastructure
 * files takes and how much memory it peaks at, in this process, with no services.
 *
 *   npx tsx bin/bench-extract.ts            # 4 MB of KML and of GeoJSON (the direct-upload limit)
 *   BENCH_MB=40 npx tsx bin/bench-extract.ts
 */
import { extractGeometries } from '../shared/domain/infrastructure/index.js';
import { largeGeojsonBytes, largeKmlBytes } from '../test/support/geo-files.js';

const MB = Number(process.env.BENCH_MB ?? 4);

for (const [name, make] of [
  ['cables.kml', largeKmlBytes],
  ['cables.geojson', largeGeojsonBytes],
] as const) {
  const data = make(MB * 1024 * 1024);
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  const { summary } = await extractGeometries(name, data);
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `${name}: ${(data.length / 1024 / 1024).toFixed(1)} MB, ${summary.feature_count} features in ${ms.toFixed(0)} ms, ` +
      `peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB (+${((peak - rssBefore) / 1024 / 1024).toFixed(0)} MB)`,
  );
}
