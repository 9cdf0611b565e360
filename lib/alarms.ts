/**
 * The alarms of a stage, each wired to the alarm topic (lib/alarm-topic.ts) and naming its entry
 * of docs/runbook.md in its description. The dead-letter alarms are the workers' own
 * (lib/worker-function.ts).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { FEED_NAMES, feedEntry } from '../shared/schemas/feed-catalog.js';
import { runbookLink, type RunbookEntry } from './runbook.js';
import { FIVE_MINUTES, MIN_REQUESTS_JUDGED, type StageMetrics } from './stage-metrics.js';

/** The API's 5xx rate (percent of requests over 5 minutes) that counts as a breach. */
export const API_5XX_RATE_PERCENT = 5;
/** The stream consumers' iterator age that counts as a breach. */
export const ITERATOR_AGE_LIMIT = Duration.seconds(60);
/** How far behind the oldest unsealed audit hour may be. */
export const AUDIT_DIGEST_LAG_LIMIT = Duration.hours(2);

type AlarmSpec = Omit<cloudwatch.AlarmProps, 'alarmName' | 'alarmDescription'> & { description: string };

/** Makes every alarm of the stage in `scope`, in the order the dashboard lists them. */
export function addAlarms(scope: Construct, metrics: StageMetrics, topic: sns.ITopic): cloudwatch.Alarm[] {
  const alarms: cloudwatch.Alarm[] = [];
  const alarm = (name: string, entry: RunbookEntry, props: AlarmSpec) => {
    const { description, ...rest } = props;
    const made = new cloudwatch.Alarm(scope, name, {
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...rest,
      alarmName: `gatehouse-${metrics.stage}-${name}`,
      alarmDescription: `${description} Runbook: ${runbookLink(entry)}`,
    });
    // The topic hears when the alarm goes off and when it clears.
    made.addAlarmAction(new cloudwatchActions.SnsAction(topic));
    made.addOkAction(new cloudwatchActions.SnsAction(topic));
    alarms.push(made);
  };
  const m = (metricName: string, dims: Record<string, string> = {}, statistic = 'Sum') =>
    metrics.business(metricName, dims, statistic);

  alarm('api-5xx-rate', 'api-5xx-rate', {
    description: `More than ${API_5XX_RATE_PERCENT}% of the API's requests answered 5xx, in 2 of the last 3 five-minute periods (with at least ${MIN_REQUESTS_JUDGED} requests).`,
    metric: metrics.serverErrorRate(),
    threshold: API_5XX_RATE_PERCENT,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  for (const g of metrics.api) {
    alarm(`api-p99-${g.group.id}`, 'api-p99-latency', {
      description: `p99 latency of the ${g.group.id} routes (${g.group.description}) above its budget of ${g.group.p99BudgetMs} ms for 15 minutes (with at least ${MIN_REQUESTS_JUDGED} requests every 5 minutes).`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(n >= ${MIN_REQUESTS_JUDGED}, p99, 0)`,
        usingMetrics: { p99: g.latency, n: g.latency.with({ statistic: 'SampleCount' }) },
        label: `${g.group.id} p99 (ms)`,
        period: FIVE_MINUTES,
      }),
      threshold: g.group.p99BudgetMs,
      evaluationPeriods: 3,
    });
  }
  const ages = metrics.iteratorAges;
  if (ages.length > 0) {
    alarm('stream-iterator-age', 'stream-iterator-age', {
      description: `A table-stream consumer (${metrics.streamConsumers.map((w) => w.worker.id).join(', ')}) is more than ${ITERATOR_AGE_LIMIT.toSeconds()} s behind the stream, for 3 minutes.`,
      metric: new cloudwatch.MathExpression({
        expression: `MAX([${ages.map((_, i) => `age${i}`).join(', ')}])`,
        usingMetrics: Object.fromEntries(ages.map((a, i) => [`age${i}`, a])),
        label: 'iterator age, worst consumer (ms)',
        period: Duration.minutes(1),
      }),
      threshold: ITERATOR_AGE_LIMIT.toMilliseconds(),
      evaluationPeriods: 3,
    });
  }
  alarm('lambda-throttles', 'lambda-throttles', {
    description:
      'Lambda throttled invocations in 2 of the last 3 five-minute periods (all functions of the account and region).',
    metric: lambda.Function.metricAllThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  alarm('webhook-exhausted', 'webhook-exhausted', {
    description: 'A webhook delivery used its last attempt and failed (WebhookExhausted).',
    metric: m('WebhookExhausted'),
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  });
  for (const feed of FEED_NAMES) {
    const period = Duration.minutes(feedEntry(feed).everyMinutes);
    const polls = (outcome: string) => m('FeedPolls', { feed, outcome }).with({ period });
    alarm(`feed-${feed}-failing`, 'feed-polls-failing', {
      description: `Polls of the feed ${feed} failed, and none succeeded, in three poll intervals (${period.toMinutes()} min) in a row.`,
      metric: new cloudwatch.MathExpression({
        expression: 'IF(FILL(failed, 0) > 0 AND FILL(ok, 0) == 0, 1, 0)',
        usingMetrics: { failed: polls('failure'), ok: polls('success') },
        label: `${feed}: only failures`,
        period,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
    });
  }
  alarm('audit-digests-behind', 'audit-digests-behind', {
    description:
      `The oldest unsealed audit hour is more than ${AUDIT_DIGEST_LAG_LIMIT.toHours()} hours behind (AuditDigestLagSeconds), ` +
      'or the audit-digests worker reported nothing for an hour (it reports every 15 minutes).',
    metric: m('AuditDigestLagSeconds', {}, 'Maximum').with({ period: Duration.hours(1) }),
    threshold: AUDIT_DIGEST_LAG_LIMIT.toSeconds(),
    evaluationPeriods: 1,
    // No report for a whole hour: the worker is not running, so the digests are falling behind.
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
  });
  return alarms;
}
