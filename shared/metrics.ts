/**
 * The service's metrics (docs/observability.md#metrics), as CloudWatch Embedded Metric Format
 * lines written by Powertools Metrics: a JSON line in the function's log that CloudWatch turns
 * into metrics, so emitting one costs no API call. Namespace `Gatehouse`; every metric carries the
 * dimensions `service` and `stage`, and some one or two of their own (never a tenant).
 *
 * Code records with the typed helpers of `metrics` (the port: no Lambda type, no Powertools type)
 * wherever the thing counted happens; the route and worker chains run each invocation inside
 * `flushingMetrics`, which writes what the invocation recorded once it ends, also when it throws.
 * What one invocation records is its own (an AsyncLocalStorage per invocation: the local server
 * runs many at once in one process). A metric recorded outside any invocation is written at once.
 *
 * Metrics are grouped by their own dimensions, one EMF line per group, so a metric never carries
 * another's dimension (`mode` on `IncidentsOpened`, say).
 *
 * Where the lines go: standard output, where Lambda's log is read for EMF (written as they are,
 * not through `console`, which Lambda's JSON log format would wrap), or the file LOG_FILE names,
 * as the service's log lines do (shared/log-sink.ts): `npm run metrics` reads them there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from './config.js';

export const METRICS_NAMESPACE = 'Gatehouse';

/** The metric contract: each metric's unit. */
const UNITS = {
  EventsIngested: MetricUnit.Count,
  IdempotentReplays: MetricUnit.Count,
  IncidentsOpened: MetricUnit.Count,
  IncidentsAcknowledged: MetricUnit.Count,
  IncidentSlaBreached: MetricUnit.Count,
  Escalations: MetricUnit.Count,
  WebhookAttempts: MetricUnit.Count,
  WebhookExhausted: MetricUnit.Count,
  NotificationsSent: MetricUnit.Count,
  FeedPolls: MetricUnit.Count,
  FeedRecords: MetricUnit.Count,
  McpToolCalls: MetricUnit.Count,
  RateLimitRefusals: MetricUnit.Count,
  AuditDigestLagSeconds: MetricUnit.Seconds,
} as const;

export type MetricName = keyof typeof UNITS;

interface Recorded {
  name: MetricName;
  value: number;
  dimensions: Readonly<Record<string, string>>;
}

/** What the current invocation has recorded; none outside an invocation. */
const invocation = new AsyncLocalStorage<Recorded[]>();

/** Powertools' serializer, writing to the service's log (see the module's note) rather than its own console. */
class LogMetrics extends Metrics {
  public override publishStoredMetrics(): this {
    try {
      if (!this.isDisabled() && this.hasStoredMetrics()) writeEmfLine(JSON.stringify(this.serializeMetrics()));
    } finally {
      this.clearMetrics();
      this.clearDimensions();
      this.clearMetadata();
    }
    return this;
  }
}

function writeEmfLine(json: string): void {
  const file = process.env.LOG_FILE;
  if (file) appendFileSync(file, `${json}\n`);
  else process.stdout.write(`${json}\n`);
}

let emitter: LogMetrics | undefined;

/** Writes what was recorded: one EMF line per set of own dimensions, counts of a metric summed. */
function publish(recorded: readonly Recorded[]): void {
  if (recorded.length === 0) return;
  emitter ??= new LogMetrics({
    namespace: METRICS_NAMESPACE,
    serviceName: 'gatehouse',
    defaultDimensions: { stage: config.stage },
  });
  const groups = new Map<string, { dimensions: Readonly<Record<string, string>>; values: Map<MetricName, number[]> }>();
  for (const r of recorded) {
    const key = JSON.stringify(Object.entries(r.dimensions).sort());
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { dimensions: r.dimensions, values: new Map() }));
    const values = group.values.get(r.name) ?? [];
    // A count is summed; another unit (seconds) keeps each value.
    if (UNITS[r.name] === MetricUnit.Count && values.length > 0) values[0]! += r.value;
    else values.push(r.value);
    group.values.set(r.name, values);
  }
  for (const { dimensions, values } of groups.values()) {
    if (Object.keys(dimensions).length > 0) emitter.addDimensions({ ...dimensions });
    for (const [name, list] of values) for (const value of list) emitter.addMetric(name, UNITS[name], value);
    emitter.publishStoredMetrics();
  }
}

function record(name: MetricName, value: number, dimensions: Record<string, string> = {}): void {
  const recorded = { name, value, dimensions };
  const batch = invocation.getStore();
  if (batch) batch.push(recorded);
  else publish([recorded]);
}

/**
 * Runs one invocation (a route's chain, a worker's handler) and writes the metrics it recorded
 * when it ends, however it ends. Its signature unchanged.
 */
export function flushingMetrics<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args: A) => {
    const batch: Recorded[] = [];
    return invocation.run(batch, async () => {
      try {
        return await fn(...args);
      } finally {
        publish(batch);
      }
    });
  };
}

export type IngestMode = 'single' | 'batch';
export type Outcome = 'success' | 'failure';

/** The metrics the service emits (docs/observability.md#metrics), one helper each. */
export const metrics = {
  /** Events stored by POST /events (`single`) or /events/batch (`batch`); a replay stores none. */
  eventsIngested: (count: number, mode: IngestMode) => record('EventsIngested', count, { mode }),
  /** A request answered with the stored answer of its Idempotency-Key. */
  idempotentReplay: () => record('IdempotentReplays', 1),
  incidentOpened: () => record('IncidentsOpened', 1),
  incidentAcknowledged: () => record('IncidentsAcknowledged', 1),
  incidentSlaBreached: () => record('IncidentSlaBreached', 1),
  /** An incident raised to its next escalation level. */
  escalation: () => record('Escalations', 1),
  webhookAttempt: (outcome: Outcome) => record('WebhookAttempts', 1, { outcome }),
  /** A delivery whose last attempt failed. */
  webhookExhausted: () => record('WebhookExhausted', 1),
  notificationSent: (channel: string) => record('NotificationsSent', 1, { channel }),
  /** One poll of a feed, and the records it read. */
  feedPoll: (feed: string, outcome: Outcome, records: number) => {
    record('FeedPolls', 1, { feed, outcome });
    if (outcome === 'success') record('FeedRecords', records, { feed });
  },
  mcpToolCall: (tool: string, outcome: 'success' | 'error') => record('McpToolCalls', 1, { tool, outcome }),
  /** A request refused with 429 by a rate limit. */
  rateLimitRefusal: () => record('RateLimitRefusals', 1),
  /** How far behind the oldest settled audit hour without a digest is; 0 when none is. */
  auditDigestLag: (seconds: number) => record('AuditDigestLagSeconds', seconds),
};
