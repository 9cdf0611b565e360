/**
 * The service's metric lines (CloudWatch Embedded Metric Format, written by shared/metrics.ts into
 * the service's log) read back: each line's metrics with their dimensions, and a summary of a span
 * of time as a table. For `npm run metrics` (bin/metrics.ts) and the tests.
 */

/** One metric of one EMF line. */
export interface MetricPoint {
  /** Milliseconds since the epoch (the line's `_aws.Timestamp`). */
  at: number;
  namespace: string;
  name: string;
  unit: string;
  /** Each value the line holds for it (a line may hold several). */
  values: number[];
  /** Its dimensions, `service` and `stage` included. */
  dimensions: Record<string, string>;
}

interface EmfDirective {
  Namespace?: unknown;
  Dimensions?: unknown;
  Metrics?: unknown;
}

/** The metrics of one log line; none for a line that is not an EMF line. */
export function metricPointsOf(line: string): MetricPoint[] {
  if (!line.includes('"_aws"')) return [];
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return [];
  }
  const aws = entry._aws as { Timestamp?: unknown; CloudWatchMetrics?: unknown } | undefined;
  if (!aws || typeof aws.Timestamp !== 'number' || !Array.isArray(aws.CloudWatchMetrics)) return [];
  const at = aws.Timestamp;
  return (aws.CloudWatchMetrics as EmfDirective[]).flatMap((directive) => {
    const namespace = typeof directive.Namespace === 'string' ? directive.Namespace : '';
    const sets = Array.isArray(directive.Dimensions) ? (directive.Dimensions as unknown[]) : [];
    const dimensionSets = (sets.length > 0 ? sets : [[]]).map((set) =>
      Object.fromEntries(
        (Array.isArray(set) ? set : [])
          .filter((k): k is string => typeof k === 'string')
          .map((k) => [k, String(entry[k])]),
      ),
    );
    const metrics = Array.isArray(directive.Metrics) ? (directive.Metrics as { Name?: unknown; Unit?: unknown }[]) : [];
    return metrics.flatMap(({ Name, Unit }) => {
      if (typeof Name !== 'string') return [];
      const raw = entry[Name];
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is number => typeof v === 'number');
      if (values.length === 0) return [];
      const unit = typeof Unit === 'string' ? Unit : 'None';
      return dimensionSets.map((dimensions) => ({ at, namespace, name: Name, unit, values, dimensions }));
    });
  });
}

/** One row of a summary: a metric with one set of dimensions. */
export interface SummaryRow {
  name: string;
  /** Its dimensions but `service`, `name=value` joined by spaces. */
  dimensions: string;
  unit: string;
  sum: number;
  /** Values recorded (a line's summed counts are one). */
  count: number;
  max: number;
}

/** The points at or after `sinceMs`, summed by metric and dimensions, ordered by metric then dimensions. */
export function summarise(points: Iterable<MetricPoint>, sinceMs: number): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const p of points) {
    if (p.at < sinceMs) continue;
    const dimensions = Object.entries(p.dimensions)
      .filter(([k]) => k !== 'service')
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const key = `${p.name}\n${dimensions}`;
    const row = rows.get(key) ?? { name: p.name, dimensions, unit: p.unit, sum: 0, count: 0, max: -Infinity };
    for (const v of p.values) {
      row.sum += v;
      row.count++;
      row.max = Math.max(row.max, v);
    }
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.dimensions.localeCompare(b.dimensions));
}

const figure = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** The rows as a table a person reads: one line each, columns aligned, numbers on the right. */
export function summaryTable(rows: readonly SummaryRow[]): string {
  const header = ['Metric', 'Dimensions', 'Unit', 'Sum', 'Count', 'Max'];
  const cells = rows.map((r) => [r.name, r.dimensions, r.unit, figure(r.sum), String(r.count), figure(r.max)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => (i >= 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
