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
 * Seconds each took in npm test on the 2-core machine, four workers (2026-11-30, a fresh clone:
 * the files of at least 5 s). Within a project the longest start first, so the last to start are
 * the shortest and the run ends with every worker busy.
 */
const MEASURED: Record<string, number> = {
  'test/e2e/analytics.test.ts': 113,
  'test/e2e/infrastructure.test.ts': 65,
  'test/e2e/event-stream.test.ts': 59,
  'test/integration/stopped-worker.test.ts': 50,
  'test/e2e/fuzz-1.test.ts': 43,
  'test/integration/ingest-faults.test.ts': 42,
  'test/e2e/portal.test.ts': 35,
  'test/integration/local-runtime.test.ts': 33,
  'test/integration/incident-list-reads.test.ts': 31,
  'test/isolation/routes-infrastructure.test.ts': 27,
  'test/isolation/routes-automation.test.ts': 27,
  'test/isolation/routes-incidents.test.ts': 24,
  'test/isolation/routes-events.test.ts': 24,
  'test/e2e/data-lake.test.ts': 24,
  'test/integration/database-outage.test.ts': 24,
  'test/e2e/filters.test.ts': 24,
  'test/isolation/routes-accounts.test.ts': 23,
  'test/e2e/vessels-real-ais.test.ts': 23,
  'test/isolation/routes-sites.test.ts': 22,
  'test/e2e/mcp.test.ts': 22,
  'test/integration/restart-tokens.test.ts': 19,
  'test/e2e/events.test.ts': 18,
  'test/e2e/zones-kept.test.ts': 18,
  'test/e2e/workflows.test.ts': 17,
  'test/e2e/voice-incidents.test.ts': 14,
  'test/e2e/watchlist.test.ts': 14,
  'test/infra/bundle-budget.test.ts': 13,
  'test/e2e/incidents.test.ts': 13,
  'test/integration/sla-scheduler.test.ts': 13,
  'test/e2e/fuzz-2.test.ts': 13,
  'test/unit/openapi.test.ts': 12,
  'test/infra/tree-shaking.test.ts': 11,
  'test/integration/secrets-at-rest.test.ts': 11,
  'test/integration/audit-total.test.ts': 11,
  'test/infra/workers.test.ts': 10,
  'test/integration/mcp-inspector.test.ts': 10,
  'test/integration/event-bus.test.ts': 10,
  'test/e2e/users.test.ts': 8,
  'test/e2e/metrics.test.ts': 8,
  'test/integration/event-page-reads.test.ts': 8,
  'test/e2e/sites.test.ts': 8,
  'test/infra/stack.test.ts': 8,
  'test/unit/infrastructure-extract.test.ts': 8,
  'test/integration/webhook-retries.test.ts': 7,
  'test/e2e/drones.test.ts': 7,
  'test/e2e/plans.test.ts': 7,
  'test/integration/incident-list-zones.test.ts': 7,
  'test/e2e/threat-libraries.test.ts': 7,
  'test/e2e/internet-health.test.ts': 6,
  'test/integration/sliding-limits.test.ts': 6,
  'test/e2e/incident-notifications.test.ts': 6,
  'test/e2e/connectors.test.ts': 6,
  'test/integration/stream-poller.test.ts': 6,
  'test/e2e/docs-page.test.ts': 6,
  'test/e2e/acknowledgement-page.test.ts': 6,
  'test/infra/bundle.test.ts': 6,
  'test/e2e/sites-sensors-assets.test.ts': 5,
  'test/e2e/webhooks.test.ts': 5,
  'test/integration/speech-local.test.ts': 5,
  'test/e2e/fibre-telemetry.test.ts': 5,
  'test/e2e/url-secrets-migration.test.ts': 5,
  'test/e2e/required-bodies.test.ts': 5,
  'test/integration/threat-score-reads.test.ts': 5,
  'test/integration/item-size-watch.test.ts': 5,
  // Pure (the unit project's): not the group suites their folder's guess is for.
  'test/isolation/generator.test.ts': 1,
  'test/isolation/coverage.test.ts': 1,
};

/** A guess for the files not measured (under 5 s, or new), by folder: a new group of the isolation suite is long. */
const BY_FOLDER: [prefix: string, seconds: number][] = [
  ['test/isolation/', 40],
  ['test/e2e/', 3],
  ['test/integration/', 3],
  ['test/infra/', 3],
  ['test/unit/', 1],
];

function guess(path: string): number {
  return MEASURED[path] ?? BY_FOLDER.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 3;
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
    // The short files of each project together, the project with the most seconds of them first,
    // but those of the projects that start no stack (no globalSetup: the unit project's, pure and
    // quick) last, to fill the end. By seconds alone the unit files came before the `bundles`
    // project's three short ones, and each of those started a process of its own in the last 15 s
    // of the run, when the cores were idle but for them.
    const projects = [
      ...Map.groupBy(
        files.filter((spec) => !isLong(spec)),
        (spec) => spec.project.name,
      ).values(),
    ];
    const total = (specs: TestSpecification[]) => specs.reduce((sum, spec) => sum + weights.get(spec)!, 0);
    const pure = (specs: TestSpecification[]) =>
      [specs[0]!.project.config.globalSetup].flat().filter(Boolean).length === 0 ? 1 : 0;
    const short = projects
      .sort((a, b) => pure(a) - pure(b) || total(b) - total(a))
      .flatMap((specs) => specs.sort(longestFirst));
    return Promise.resolve([...long, ...short]);
  }
}
