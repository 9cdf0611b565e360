/**
 * The order files start in: the long ones first, across the projects (vitest's own order runs the
 * projects one after another, by name: e2e, stack, unit). A run is as long as its last file, so
 * the files that take minutes, most of it waiting on a stack of their own (the integration tests
 * that start `npm start`), start at once, beside the rest, instead of last with nothing to overlap.
 * Then the short ones, a project at a time, longest first within each: a worker runs the next file
 * in its own process only when that file is of the same project (vitest.config.ts, `isolate:
 * false`), so interleaving the projects there would start a process for nearly every file.
 *
 * A file's weight is its duration in vitest's results cache when there is one (a developer's
 * machine), else the seconds measured for the slowest files below (a fresh clone in CI has no
 * cache), else a guess by folder. The table is a hint, not a contract: a renamed file falls back
 * to its folder's guess, and the run stays correct, only longer.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each took in npm test on the 2-core machine, four workers (2026-11-30: vitest's results
 * cache after a full run; the files of at least 10 s).
 */
const MEASURED: Record<string, number> = {
  'test/e2e/analytics.test.ts': 76,
  'test/e2e/infrastructure.test.ts': 52,
  'test/integration/stopped-worker.test.ts': 51,
  'test/integration/database-outage.test.ts': 48,
  'test/e2e/event-stream.test.ts': 48,
  'test/e2e/fuzz-1.test.ts': 45,
  'test/integration/ingest-faults.test.ts': 38,
  'test/e2e/mcp.test.ts': 31,
  'test/integration/local-runtime.test.ts': 29,
  'test/isolation/routes-incidents.test.ts': 28,
  'test/isolation/routes-accounts.test.ts': 27,
  'test/e2e/data-lake.test.ts': 24,
  'test/isolation/routes-infrastructure.test.ts': 24,
  'test/isolation/routes-automation.test.ts': 22,
  'test/isolation/routes-events.test.ts': 22,
  'test/e2e/connectors.test.ts': 21,
  'test/integration/restart-tokens.test.ts': 21,
  'test/e2e/events.test.ts': 21,
  'test/e2e/zones-kept.test.ts': 19,
  'test/infra/tree-shaking.test.ts': 17,
  'test/e2e/workflows.test.ts': 17,
  'test/integration/incident-list-reads.test.ts': 16,
  'test/e2e/portal.test.ts': 16,
  'test/e2e/metrics.test.ts': 16,
  'test/e2e/filters.test.ts': 15,
  'test/infra/bundle-budget.test.ts': 15,
  'test/e2e/vessels-real-ais.test.ts': 14,
  'test/integration/event-bus.test.ts': 14,
  'test/unit/openapi.test.ts': 13,
  'test/integration/secrets-at-rest.test.ts': 13,
  'test/e2e/incidents.test.ts': 13,
  'test/e2e/voice-incidents.test.ts': 13,
  'test/e2e/threat-libraries.test.ts': 12,
  'test/e2e/fuzz-2.test.ts': 11,
  'test/integration/incident-list-zones.test.ts': 11,
  'test/e2e/incident-notifications.test.ts': 10,
  'test/integration/event-page-reads.test.ts': 10,
};

/** A guess for files not measured, by folder: the unit files are pure and quick, so they go last. */
const BY_FOLDER: [prefix: string, seconds: number][] = [
  ['test/isolation/', 40],
  ['test/e2e/', 10],
  ['test/integration/', 10],
  ['test/infra/', 10],
  ['test/unit/', 1],
];

function guess(path: string): number {
  return MEASURED[path] ?? BY_FOLDER.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 5;
}

/** Files expected to take at least this long start first, whatever their project. */
const LONG_SECONDS = 15;

export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const weight = (spec: TestSpecification): number => {
      const cached = cache.getTestSpecificationResult(spec);
      if (cached?.failed) return Number.POSITIVE_INFINITY;
      if (cached?.duration) return cached.duration / 1000;
      const path = spec.moduleId.slice(this.ctx.config.root.length + 1);
      return guess(path);
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    const longestFirst = (a: TestSpecification, b: TestSpecification) => weights.get(b)! - weights.get(a)!;
    const isLong = (spec: TestSpecification) => weights.get(spec)! >= LONG_SECONDS;
    const long = files.filter(isLong).sort(longestFirst);
    // The short files of each project together, the project with the most seconds of them first.
    const projects = [
      ...Map.groupBy(
        files.filter((spec) => !isLong(spec)),
        (spec) => spec.project.name,
      ).values(),
    ];
    const total = (specs: TestSpecification[]) => specs.reduce((sum, spec) => sum + weights.get(spec)!, 0);
    const short = projects.sort((a, b) => total(b) - total(a)).flatMap((specs) => specs.sort(longestFirst));
    return Promise.resolve([...long, ...short]);
  }
}
