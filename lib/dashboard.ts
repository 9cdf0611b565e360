/**
 * The dashboard of a stage (`gatehouse-<stage>`): the API by route group, Lambda, DynamoDB and
 * the table's stream, every queue, webhooks and the business metrics, and every alarm's state.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AUDIT_DIGEST_LAG_LIMIT, ITERATOR_AGE_LIMIT } from './alarms.js';
import { FIVE_MINUTES, type RouteGroupMetrics, type StageMetrics } from './stage-metrics.js';

const text = (markdown: string) => new cloudwatch.TextWidget({ markdown, width: 24, height: 2 });
const graph = (
  title: string,
  left: cloudwatch.IMetric[],
  width = 8,
  extra: Partial<cloudwatch.GraphWidgetProps> = {},
) => new cloudwatch.GraphWidget({ title, left, width, height: 6, ...extra });

/** Makes the dashboard in `scope`; `alarms` are shown by state at the bottom. */
export function addDashboard(
  scope: Construct,
  metrics: StageMetrics,
  alarms: readonly cloudwatch.IAlarm[],
): cloudwatch.Dashboard {
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: `gatehouse-${metrics.stage}`,
    defaultInterval: Duration.hours(6),
  });
  const m = (metricName: string, dims: Record<string, string> = {}, statistic = 'Sum') =>
    metrics.business(metricName, dims, statistic);

  // API, by route group (lib/route-groups.ts).
  dashboard.addWidgets(
    text(`# Gatehouse ${metrics.stage}\nAlarms and what to do: docs/runbook.md. Route groups: lib/route-groups.ts.`),
  );
  const byGroup = (title: string, figure: keyof Omit<RouteGroupMetrics, 'group'>) =>
    graph(
      title,
      metrics.api.map((g) => g[figure].with({ label: g.group.id })),
      6,
    );
  dashboard.addWidgets(
    byGroup('API requests by route group', 'requests'),
    byGroup('API 4xx by route group', 'clientErrors'),
    byGroup('API 5xx by route group', 'serverErrors'),
    byGroup('API p99 latency by route group (ms)', 'latency'),
  );

  // Lambda: the functions of the stage, the ten worst of each.
  dashboard.addWidgets(
    graph('Lambda errors (top 10 functions)', [metrics.topFunctions('Errors', 'Sum', 'SUM', 'errors')]),
    graph('Lambda throttles (top 10 functions)', [
      metrics.topFunctions('Throttles', 'Sum', 'SUM', 'throttles'),
      lambda.Function.metricAllThrottles({
        period: FIVE_MINUTES,
        statistic: 'Sum',
        label: 'all functions of the account',
      }),
    ]),
    graph('Lambda duration p99 (top 10 functions, ms)', [
      metrics.topFunctions('Duration', 'p99', 'MAX', 'duration p99'),
    ]),
  );

  // DynamoDB and the table's stream.
  const table = (metricName: string) => metrics.tableMetric(metricName);
  dashboard.addWidgets(
    graph('DynamoDB throttles', [
      table('ReadThrottleEvents'),
      table('WriteThrottleEvents'),
      table('ThrottledRequests'),
    ]),
    graph('DynamoDB consumed capacity', [table('ConsumedReadCapacityUnits'), table('ConsumedWriteCapacityUnits')]),
    graph('Table stream iterator age (ms)', [...metrics.iteratorAges], 8, {
      leftAnnotations: [{ value: ITERATOR_AGE_LIMIT.toMilliseconds(), label: 'alarm' }],
    }),
  );

  // Every queue and dead-letter queue.
  const queueMetric = (fn: 'metricApproximateNumberOfMessagesVisible' | 'metricApproximateAgeOfOldestMessage') =>
    [...metrics.queues].map(([name, q]) => q[fn]({ statistic: 'Maximum', period: FIVE_MINUTES, label: name }));
  dashboard.addWidgets(
    graph(
      'Queue depth (messages visible, queues and dead letters)',
      queueMetric('metricApproximateNumberOfMessagesVisible'),
      12,
    ),
    graph(
      'Queue age of oldest message (s, queues and dead letters)',
      queueMetric('metricApproximateAgeOfOldestMessage'),
      12,
    ),
  );

  // Webhooks and the business metrics (the metric contract: docs/observability.md).
  const attempts = {
    ok: m('WebhookAttempts', { outcome: 'success' }),
    failed: m('WebhookAttempts', { outcome: 'failure' }),
  };
  const successRate = new cloudwatch.MathExpression({
    expression: 'IF(ok + failed > 0, 100 * ok / (ok + failed), 100)',
    usingMetrics: { ok: attempts.ok, failed: attempts.failed },
    label: 'webhook success rate, %',
    period: FIVE_MINUTES,
  });
  dashboard.addWidgets(
    graph('Webhook success rate (%)', [successRate], 8, { leftYAxis: { min: 0, max: 100 } }),
    graph('Webhook attempts and exhaustions', [
      attempts.ok.with({ label: 'success' }),
      attempts.failed.with({ label: 'failure' }),
      m('WebhookExhausted'),
    ]),
    graph('Events ingested', [
      m('EventsIngested', { mode: 'single' }).with({ label: 'single' }),
      m('EventsIngested', { mode: 'batch' }).with({ label: 'batch' }),
      m('IdempotentReplays'),
    ]),
  );
  dashboard.addWidgets(
    graph('Incidents', [m('IncidentsOpened'), m('IncidentsAcknowledged'), m('IncidentSlaBreached'), m('Escalations')]),
    graph('Notifications sent by channel', [metrics.businessSearch('NotificationsSent', ['channel'], 'sent')]),
    graph('MCP tool calls by tool and outcome', [metrics.businessSearch('McpToolCalls', ['tool', 'outcome'], 'calls')]),
  );
  dashboard.addWidgets(
    graph('Feed polls by feed and outcome', [metrics.businessSearch('FeedPolls', ['feed', 'outcome'], 'polls')]),
    graph('Feed records by feed', [metrics.businessSearch('FeedRecords', ['feed'], 'records')]),
    graph('Rate-limit refusals and audit digest lag', [m('RateLimitRefusals')], 8, {
      right: [m('AuditDigestLagSeconds', {}, 'Maximum')],
      rightAnnotations: [{ value: AUDIT_DIGEST_LAG_LIMIT.toSeconds(), label: 'alarm' }],
    }),
  );

  // Every alarm's state at the bottom.
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({
      title: 'Alarms',
      alarms: [...alarms],
      width: 24,
      height: 6,
      sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
    }),
  );
  return dashboard;
}
