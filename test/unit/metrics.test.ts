/**
 * shared/metrics.ts writes each invocation's metrics as EMF lines where the log goes, one line per
 * set of own dimensions; bin/metric-lines.ts reads them back into the table `npm run metrics`
 * prints.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metricPointsOf, summarise, summaryTable } from '../../bin/metric-lines.js';
import { flushingMetrics, metrics } from '../../shared/metrics.js';

let dir: string;
let logFile: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'metrics-'));
  logFile = process.env.LOG_FILE;
  process.env.LOG_FILE = join(dir, 'log.jsonl');
});
afterEach(() => {
  if (logFile === undefined) delete process.env.LOG_FILE;
  else process.env.LOG_FILE = logFile;
  rmSync(dir, { recursive: true, force: true });
});

const lines = () =>
  readFileSync(process.env.LOG_FILE!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('shared/metrics', () => {
  it("writes an invocation's metrics when it ends: one line per set of own dimensions, counts summed", async () => {
    const run = flushingMetrics(async (n: number) => {
      metrics.eventsIngested(n, 'batch');
      metrics.eventsIngested(2, 'batch');
      metrics.incidentOpened();
      metrics.webhookAttempt('failure');
      metrics.webhookExhausted();
      return n;
    });
    expect(await run(3)).toBe(3);
    const written = lines();
    expect(written).toHaveLength(3);
    const byMetric = (name: string) => written.find((l) => name in l)!;
    expect(byMetric('EventsIngested')).toMatchObject({ EventsIngested: 5, mode: 'batch', service: 'gatehouse' });
    // Metrics without dimensions of their own share a line, and carry none of the others'.
    const plain = byMetric('IncidentsOpened');
    expect(plain).toMatchObject({ IncidentsOpened: 1, WebhookExhausted: 1 });
    expect(plain).not.toHaveProperty('mode');
    expect(plain).not.toHaveProperty('outcome');
    expect(
      (plain._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] }).CloudWatchMetrics[0]!.Dimensions,
    ).toEqual([['service', 'stage']]);
    expect(byMetric('WebhookAttempts')).toMatchObject({ WebhookAttempts: 1, outcome: 'failure' });
  });

  it('keeps concurrent invocations apart, and writes a failed one too', async () => {
    const slow = flushingMetrics(async () => {
      metrics.incidentOpened();
      await new Promise((resolve) => setTimeout(resolve, 20));
      metrics.incidentOpened();
    });
    const failing = flushingMetrics(async () => {
      metrics.rateLimitRefusal();
      throw new Error('refused');
    });
    const [, failed] = await Promise.allSettled([slow(), failing()]);
    expect(failed.status).toBe('rejected');
    const written = lines();
    expect(written).toHaveLength(2);
    expect(written.find((l) => 'IncidentsOpened' in l)).not.toHaveProperty('RateLimitRefusals');
    expect(written.find((l) => 'IncidentsOpened' in l)).toMatchObject({ IncidentsOpened: 2 });
    expect(written.find((l) => 'RateLimitRefusals' in l)).toMatchObject({ RateLimitRefusals: 1 });
  });

  it('writes a metric recorded outside any invocation at once', () => {
    metrics.auditDigestLag(90);
    const [line] = lines();
    expect(metricPointsOf(JSON.stringify(line))).toEqual([
      expect.objectContaining({ name: 'AuditDigestLagSeconds', unit: 'Seconds', values: [90] }),
    ]);
  });
});

describe('npm run metrics (bin/metric-lines.ts)', () => {
  it('sums the lines of the span by metric and dimensions into a table', async () => {
    await flushingMetrics(async () => {
      metrics.eventsIngested(1, 'single');
      metrics.feedPoll('cisa-kev', 'success', 40);
      metrics.mcpToolCall('list_incidents', 'success');
    })();
    await flushingMetrics(async () => {
      metrics.eventsIngested(1, 'single');
      metrics.feedPoll('cisa-kev', 'failure', 0);
    })();
    const text = readFileSync(process.env.LOG_FILE!, 'utf8');
    // A log line that is not a metric, and a metric line from before the span, are left out.
    const old = text.split('\n')[0]!.replace(/"Timestamp":\d+/, '"Timestamp":1');
    const points = [`{"level":"info","msg":"request"}`, old, ...text.split('\n')].flatMap(metricPointsOf);
    const rows = summarise(points, Date.now() - 60_000);
    expect(rows.map((r) => [r.name, r.dimensions, r.sum, r.count])).toEqual([
      ['EventsIngested', 'stage=local mode=single', 2, 2],
      ['FeedPolls', 'stage=local feed=cisa-kev outcome=failure', 1, 1],
      ['FeedPolls', 'stage=local feed=cisa-kev outcome=success', 1, 1],
      ['FeedRecords', 'stage=local feed=cisa-kev', 40, 1],
      ['McpToolCalls', 'stage=local tool=list_incidents outcome=success', 1, 1],
    ]);
    const table = summaryTable(rows).split('\n');
    expect(table[0]).toMatch(/^Metric\s+Dimensions\s+Unit\s+Sum\s+Count\s+Max$/);
    expect(table[3]).toMatch(/^FeedPolls\s+stage=local feed=cisa-kev outcome=failure\s+Count\s+1\s+1\s+1$/);
  });
});
