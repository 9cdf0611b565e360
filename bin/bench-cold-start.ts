/**
 * Cold-start benchmark (a script, not a test): every function as `cdk synth` builds it (the local
 * bundles, lib/local-bundles.ts: reused when built from the current sources), plus the
 * floor (a handler that builds the DynamoDB document client and sends one GetCommand) and an empty
 * handler with the same settings, then imports each bundle in a fresh Node process, several times,
 * alternated with the floor and the empty handler, and prints per bundle its size, the median
 * import time and its ratios to both.
 *
 *   npx tsx bin/bench-cold-start.ts                 # BENCH_ROUNDS (default 5) imports of each
 *   BENCH_ONLY=environments.get,health npx tsx bin/bench-cold-start.ts
 *
 * Each import runs with the NODE_OPTIONS its function is deployed with (`--enable-source-maps`);
 * the source-map line at the end shows what that flag costs. Importing is what Lambda's init
 * does: module-scope work (SDK clients, validators, the JWT verifier) counts, the first request
 * does not.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { BUNDLE_BUDGET_KB, median, stackBundles, type Bundle } from '../test/support/bundles.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);

// The settings every function reads at load (shared/config.ts); the values are never used.
const ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'table',
  BUCKET_NAME: 'bucket',
  EVENT_BUS_NAME: 'bus',
  USER_POOL_ID: 'us-east-1_example',
  USER_POOL_CLIENT_ID: 'client',
  GATEHOUSE_STAGE: 'bench',
};

// Lambda's runtime defines `awslambda` for streaming handlers; a stand-in that only marks them.
const AWSLAMBDA_SHIM =
  'data:text/javascript,globalThis.awslambda={streamifyResponse:(f)=>f,HttpResponseStream:{from:(s)=>s}};';

const IMPORT_AND_TIME =
  'const t=performance.now();await import(process.argv[1]);process.stdout.write(String(performance.now()-t));';

/** Milliseconds to import `bundle` in a fresh Node process; throws with its stderr on failure. */
function importMs(bundle: Bundle, sourceMaps = bundle.nodeOptions.includes('--enable-source-maps')): number {
  const args = [
    '--import',
    AWSLAMBDA_SHIM,
    ...(sourceMaps ? ['--enable-source-maps'] : []),
    '--input-type=module',
    '-e',
    IMPORT_AND_TIME,
  ];
  const run = spawnSync(process.execPath, [...args, pathToFileURL(bundle.file).href], { env: ENV, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${bundle.name}: import failed\n${run.stderr}`);
  const warnings = run.stderr.trim();
  if (warnings) warned.set(bundle.name, warnings.split('\n')[0]!);
  return Number(run.stdout);
}
const warned = new Map<string, string>();

console.log('building bundles (as cdk synth does; the local bundles when built from these sources) ...');
const built = performance.now();
const bundles = stackBundles();
console.log(
  `${bundles.functions.length} functions and 2 reference bundles in ${((performance.now() - built) / 1000).toFixed(0)} s`,
);

try {
  const measured = bundles.functions.filter((b) => !ONLY || ONLY.includes(b.name));
  const times = new Map<string, number[]>(measured.map((b) => [b.name, []]));
  const floorTimes: number[] = [];
  const emptyTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const bundle of measured) {
      // Alternated, so drift of the machine touches the three alike.
      emptyTimes.push(importMs(bundles.empty));
      floorTimes.push(importMs(bundles.floor));
      times.get(bundle.name)!.push(importMs(bundle));
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
  }
  const empty = median(emptyTimes);
  const floor = median(floorTimes);
  const kb = (bytes: number) => (bytes / 1024).toFixed(0);
  const rows = measured.map((b) => ({ bundle: b, ms: median(times.get(b.name)!) })).sort((a, b) => b.ms - a.ms);
  console.log('');
  console.log(
    `${'function'.padEnd(32)} ${'KB'.padStart(6)} ${'import ms'.padStart(10)} ${'x empty'.padStart(8)} ${'x floor'.padStart(8)}`,
  );
  const line = (name: string, bytes: number, ms: number) =>
    console.log(
      `${name.padEnd(32)} ${kb(bytes).padStart(6)} ${ms.toFixed(1).padStart(10)} ${(ms / empty).toFixed(2).padStart(8)} ${(ms / floor).toFixed(2).padStart(8)}`,
    );
  line('(empty handler)', bundles.empty.bytes, empty);
  line('(floor: one GetCommand)', bundles.floor.bytes, floor);
  for (const { bundle, ms } of rows) line(bundle.name, bundle.bytes, ms);

  const sizes = measured.map((b) => b.bytes);
  const toFloor = rows.map((r) => r.ms / floor);
  const toEmpty = rows.map((r) => r.ms / empty);
  console.log('');
  console.log(
    `bundles: ${measured.length}; size median ${kb(median(sizes))} KB, max ${kb(Math.max(...sizes))} KB (floor ${kb(bundles.floor.bytes)} KB; budget: median <= floor + ${BUNDLE_BUDGET_KB.median} KB, each <= floor + ${BUNDLE_BUDGET_KB.each} KB)`,
  );
  console.log(
    `import time / empty handler: median ${median(toEmpty).toFixed(2)}, range ${Math.min(...toEmpty).toFixed(2)} to ${Math.max(...toEmpty).toFixed(2)} (floor: ${(floor / empty).toFixed(2)})`,
  );
  console.log(
    `import time / floor: median ${median(toFloor).toFixed(2)}, worst ${Math.max(...toFloor).toFixed(2)} (target: median <= 1.3, worst <= 2.0)`,
  );

  // What --enable-source-maps costs at import, on the floor and the largest bundle.
  const largest = [...measured].sort((a, b) => b.bytes - a.bytes)[0]!;
  const cost = (b: Bundle) => {
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      on.push(importMs(b, true));
      off.push(importMs(b, false));
    }
    return `${median(off).toFixed(1)} ms without, ${median(on).toFixed(1)} ms with`;
  };
  console.log(`--enable-source-maps: floor ${cost(bundles.floor)}; ${largest.name} (largest) ${cost(largest)}`);
  if (warned.size > 0) {
    console.log(`${warned.size} bundles print to stderr at import, e.g. ${[...warned][0]!.join(': ')}`);
  } else {
    console.log('no bundle prints anything to stderr at import (no deprecation warnings)');
  }
} finally {
  bundles.dispose();
}
