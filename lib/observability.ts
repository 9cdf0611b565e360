/**
 * What the people who run a stage look at and are paged by: one SNS topic for every alarm
 * (AlarmTopic), and a dashboard with the alarms of the stage (Observability). docs/runbook.md has
 * an entry per alarm; each alarm's description names it. Business metrics are the ones the
 * functions emit in Embedded Metric Format (Powertools Metrics, namespace `Gatehouse`, dimensions
 * `service` and `stage`: docs/observability.md).
 */
import { CfnCondition, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteDef } from '../shared/routes/index.js';
import { FEED_NAMES, feedEntry } from '../shared/schemas/feed-catalog.js';
import { METRICS_NAMESPACE, POWERTOOLS_SERVICE_NAME } from './function.js';
import { routeGroups, type RouteGroup } from './route-groups.js';
import { runbookLink, type RunbookEntry } from './runbook.js';
import type { WorkerFunction } from './worker-function.js';

const FIVE_MINUTES = Duration.minutes(5);

/** Below this many requests in 5 minutes, a route group's p99 and the 5xx rate are not judged. */
export const MIN_REQUESTS_JUDGED = 20;
/** The API's 5xx rate (percent of requests over 5 minutes) that counts as a breach. */
export const API_5XX_RATE_PERCENT = 5;
/** The stream consumers' iterator age that counts as a breach. */
export const ITERATOR_AGE_LIMIT = Duration.seconds(60);
/** How far behind the oldest unsealed audit hour may be. */
export const AUDIT_DIGEST_LAG_LIMIT = Duration.hours(2);

export interface AlarmTopicProps {
  readonly stage: string;
  /** A topic of yours instead of the stack's own. */
  readonly topicArn?: string;
  /** The default of the AlarmEmail parameter (context `alarmEmail`). */
  readonly email?: string;
}

/**
 * The topic every alarm notifies, encrypted with a key of its own (CloudWatch cannot publish to a
 * topic under the AWS-managed SNS key), and an e-mail subscription to it when the stack's
 * `AlarmEmail` parameter (default: context `alarmEmail`) is not empty.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.ITopic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    if (props.topicArn) {
      this.topic = sns.Topic.fromTopicArn(this, 'Topic', props.topicArn);
    } else {
      const key = new kms.Key(this, 'Key', {
        description: `Gatehouse ${props.stage}: encrypts the alarm topic`,
        enableKeyRotation: true,
      });
      // CloudWatch encrypts what it publishes with the topic's key.
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          resources: ['*'],
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
      );
      const topic = new sns.Topic(this, 'Topic', {
        topicName: `gatehouse-${props.stage}-alarms`,
        displayName: `Gatehouse ${props.stage} alarms`,
        masterKey: key,
        enforceSSL: true,
      });
      // The stack's topic policy replaces SNS's default one: CloudWatch (this account's alarms) may publish.
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
      );
      this.topic = topic;
    }
    const email = new CfnParameter(Stack.of(this), 'AlarmEmail', {
      type: 'String',
      default: props.email ?? '',
      description: 'An e-mail address the alarm topic notifies (it must confirm the subscription); empty: none',
      allowedPattern: '^$|^[^\\s@<>]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, '')),
    });
    const subscription = new sns.CfnSubscription(this, 'Email', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: email.valueAsString,
    });
    subscription.cfnOptions.condition = hasEmail;
  }
}

export interface ObservabilityProps {
  readonly stage: string;
  readonly routes: readonly RouteDef[];
  /** The REST API's name (`gatehouse-<stage>`) and its stage's access log. */
  readonly restApiName: string;
  readonly accessLogs: logs.ILogGroup;
  readonly table: dynamodb.ITableV2;
  /** lib/queues.ts: each queue and dead-letter queue by target name. */
  readonly queues: ReadonlyMap<string, sqs.IQueue>;
  /** The workers (lib/workers-stack.ts), by id. */
  readonly workers: ReadonlyMap<string, WorkerFunction>;
  readonly topic: sns.ITopic;
}

export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly groups: RouteGroup[];
  private readonly stage: string;
  private readonly topic: sns.ITopic;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.stage = props.stage;
    this.topic = props.topic;
    this.groups = routeGroups(props.routes);
    const api = this.apiByGroup(props.accessLogs);

    const dashboard = (this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `gatehouse-${props.stage}`,
      defaultInterval: Duration.hours(6),
    }));
    const text = (markdown: string) => new cloudwatch.TextWidget({ markdown, width: 24, height: 2 });
    const graph = (
      title: string,
      left: cloudwatch.IMetric[],
      width = 8,
      extra: Partial<cloudwatch.GraphWidgetProps> = {},
    ) => new cloudwatch.GraphWidget({ title, left, width, height: 6, ...extra });

    // API, by route group (lib/route-groups.ts).
    const gatewayDims = { ApiName: props.restApiName, Stage: props.stage };
    const gateway = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: gatewayDims,
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    const requests = gateway('Count');
    const serverErrors = gateway('5XXError');
    const errorRate = new cloudwatch.MathExpression({
      expression: `IF(requests >= ${MIN_REQUESTS_JUDGED}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx, % of requests',
      period: FIVE_MINUTES,
    });
    dashboard.addWidgets(
      text(`# Gatehouse ${props.stage}\nAlarms and what to do: docs/runbook.md. Route groups: lib/route-groups.ts.`),
    );
    const byGroup = (title: string, figure: 'requests' | 'clientErrors' | 'serverErrors' | 'latency') =>
      graph(
        title,
        api.map((g) => g[figure].with({ label: g.group.id })),
        6,
      );
    dashboard.addWidgets(
      byGroup('API requests by route group', 'requests'),
      byGroup('API 4xx by route group', 'clientErrors'),
      byGroup('API 5xx by route group', 'serverErrors'),
      byGroup('API p99 latency by route group (ms)', 'latency'),
    );

    // Lambda: the functions of the stage, the ten worst of each.
    const top = (metricName: string, stat: string, rank: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SORT(SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" ${this.functionSearchTerm()}', '${stat}', 300), ${rank}, DESC, 10)`,
        usingMetrics: {},
        label,
        period: FIVE_MINUTES,
      });
    dashboard.addWidgets(
      graph('Lambda errors (top 10 functions)', [top('Errors', 'Sum', 'SUM', 'errors')]),
      graph('Lambda throttles (top 10 functions)', [
        top('Throttles', 'Sum', 'SUM', 'throttles'),
        lambda.Function.metricAllThrottles({
          period: FIVE_MINUTES,
          statistic: 'Sum',
          label: 'all functions of the account',
        }),
      ]),
      graph('Lambda duration p99 (top 10 functions, ms)', [top('Duration', 'p99', 'MAX', 'duration p99')]),
    );

    // DynamoDB and the table's stream.
    const table = (metricName: string, statistic = 'Sum') =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        statistic,
        period: FIVE_MINUTES,
      });
    const streamConsumers = [...props.workers.values()].filter((w) => w.worker.trigger.kind === 'table-stream');
    const iteratorAges = streamConsumers.map((w) =>
      w.function.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1), label: w.worker.id }),
    );
    dashboard.addWidgets(
      graph('DynamoDB throttles', [
        table('ReadThrottleEvents'),
        table('WriteThrottleEvents'),
        table('ThrottledRequests'),
      ]),
      graph('DynamoDB consumed capacity', [table('ConsumedReadCapacityUnits'), table('ConsumedWriteCapacityUnits')]),
      graph('Table stream iterator age (ms)', iteratorAges, 8, {
        leftAnnotations: [{ value: ITERATOR_AGE_LIMIT.toMilliseconds(), label: 'alarm' }],
      }),
    );

    // Every queue and dead-letter queue: lib/queues.ts, and the workers' own dead letters.
    const queues = new Map<string, sqs.IQueue>(props.queues);
    for (const w of props.workers.values())
      if (w.worker.trigger.kind !== 'queue') queues.set(`${w.worker.id}:dead-letters`, w.deadLetterQueue);
    const queueMetric = (fn: 'metricApproximateNumberOfMessagesVisible' | 'metricApproximateAgeOfOldestMessage') =>
      [...queues].map(([name, q]) => q[fn]({ statistic: 'Maximum', period: FIVE_MINUTES, label: name }));
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
    const m = (metricName: string, dims: Record<string, string> = {}, statistic = 'Sum') =>
      this.business(metricName, dims, statistic);
    const search = (metricName: string, extraDims: string[], label: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${['service', 'stage', ...extraDims].join(',')}} MetricName="${metricName}" stage="${props.stage}"', 'Sum', 300)`,
        usingMetrics: {},
        label,
        period: FIVE_MINUTES,
      });
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
      graph('Incidents', [
        m('IncidentsOpened'),
        m('IncidentsAcknowledged'),
        m('IncidentSlaBreached'),
        m('Escalations'),
      ]),
      graph('Notifications sent by channel', [search('NotificationsSent', ['channel'], 'sent')]),
      graph('MCP tool calls by tool and outcome', [search('McpToolCalls', ['tool', 'outcome'], 'calls')]),
    );
    dashboard.addWidgets(
      graph('Feed polls by feed and outcome', [search('FeedPolls', ['feed', 'outcome'], 'polls')]),
      graph('Feed records by feed', [search('FeedRecords', ['feed'], 'records')]),
      graph('Rate-limit refusals and audit digest lag', [m('RateLimitRefusals')], 8, {
        right: [m('AuditDigestLagSeconds', {}, 'Maximum')],
        rightAnnotations: [{ value: AUDIT_DIGEST_LAG_LIMIT.toSeconds(), label: 'alarm' }],
      }),
    );

    // Alarms.
    this.alarm('api-5xx-rate', 'api-5xx-rate', {
      description: `More than ${API_5XX_RATE_PERCENT}% of the API's requests answered 5xx, in 2 of the last 3 five-minute periods (with at least ${MIN_REQUESTS_JUDGED} requests).`,
      metric: errorRate,
      threshold: API_5XX_RATE_PERCENT,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    for (const g of api) {
      this.alarm(`api-p99-${g.group.id}`, 'api-p99-latency', {
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
    // Every dead-letter queue's alarm is its worker's (lib/worker-function.ts), wired to the same topic.
    if (iteratorAges.length > 0) {
      this.alarm('stream-iterator-age', 'stream-iterator-age', {
        description: `A table-stream consumer (${streamConsumers.map((w) => w.worker.id).join(', ')}) is more than ${ITERATOR_AGE_LIMIT.toSeconds()} s behind the stream, for 3 minutes.`,
        metric: new cloudwatch.MathExpression({
          expression: `MAX([${iteratorAges.map((_, i) => `age${i}`).join(', ')}])`,
          usingMetrics: Object.fromEntries(iteratorAges.map((a, i) => [`age${i}`, a])),
          label: 'iterator age, worst consumer (ms)',
          period: Duration.minutes(1),
        }),
        threshold: ITERATOR_AGE_LIMIT.toMilliseconds(),
        evaluationPeriods: 3,
      });
    }
    this.alarm('lambda-throttles', 'lambda-throttles', {
      description:
        'Lambda throttled invocations in 2 of the last 3 five-minute periods (all functions of the account and region).',
      metric: lambda.Function.metricAllThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    this.alarm('webhook-exhausted', 'webhook-exhausted', {
      description: 'A webhook delivery used its last attempt and failed (WebhookExhausted).',
      metric: m('WebhookExhausted'),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    for (const feed of FEED_NAMES) {
      const period = Duration.minutes(feedEntry(feed).everyMinutes);
      const polls = (outcome: string) => m('FeedPolls', { feed, outcome }).with({ period });
      this.alarm(`feed-${feed}-failing`, 'feed-polls-failing', {
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
    this.alarm('audit-digests-behind', 'audit-digests-behind', {
      description:
        `The oldest unsealed audit hour is more than ${AUDIT_DIGEST_LAG_LIMIT.toHours()} hours behind (AuditDigestLagSeconds), ` +
        'or the audit-digests worker reported nothing for an hour (it reports every 15 minutes).',
      metric: m('AuditDigestLagSeconds', {}, 'Maximum').with({ period: Duration.hours(1) }),
      threshold: AUDIT_DIGEST_LAG_LIMIT.toSeconds(),
      evaluationPeriods: 1,
      // No report for a whole hour: the worker is not running, so the digests are falling behind.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });

    // Every alarm's state at the bottom, the dead-letter ones included.
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarms',
        alarms: [...this.alarms, ...[...props.workers.values()].map((w) => w.deadLetterAlarm)],
        width: 24,
        height: 6,
        sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      }),
    );
  }

  /** A business metric of the contract: namespace Gatehouse, `service` and `stage` dimensions. */
  private business(metricName: string, dims: Record<string, string>, statistic: string): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName,
      dimensionsMap: { service: POWERTOOLS_SERVICE_NAME, stage: this.stage, ...dims },
      statistic,
      period: FIVE_MINUTES,
    });
  }

  /** SEARCH terms that pick the stage's functions: CloudFormation names them `Gatehouse-<stage>-...`. */
  private functionSearchTerm(): string {
    return `"Gatehouse-${this.stage}"`;
  }

  /**
   * Each route group's requests, 4xx, 5xx and latency, from metric filters on the access log
   * (namespace `Gatehouse/Api/<group>`, dimension `stage`): API Gateway's per-method metrics would
   * cost a custom metric per method and statistic.
   */
  private apiByGroup(accessLogs: logs.ILogGroup) {
    return this.groups.map((group) => {
      const namespace = `Gatehouse/Api/${group.id}`;
      const mine = `(${group.prefixes.map((p) => `$.resourcePath = "${p}*"`).join(' || ')})`;
      const timed = mine + group.streamingPaths.map((p) => ` && $.resourcePath != "${p}"`).join('');
      const filter = (name: string, pattern: string, metricValue: string, unit: cloudwatch.Unit) => {
        new logs.MetricFilter(this, `${group.id}-${name}`, {
          logGroup: accessLogs,
          filterPattern: logs.FilterPattern.literal(`{ ${pattern} }`),
          metricNamespace: namespace,
          metricName: name,
          metricValue,
          unit,
          dimensions: { stage: '$.stage' },
        });
        return new cloudwatch.Metric({
          namespace,
          metricName: name,
          dimensionsMap: { stage: this.stage },
          statistic: name === 'Latency' ? 'p99' : 'Sum',
          period: FIVE_MINUTES,
        });
      };
      return {
        group,
        requests: filter('Requests', mine, '1', cloudwatch.Unit.COUNT),
        clientErrors: filter('4xx', `${mine} && $.status >= 400 && $.status < 500`, '1', cloudwatch.Unit.COUNT),
        serverErrors: filter('5xx', `${mine} && $.status >= 500`, '1', cloudwatch.Unit.COUNT),
        latency: filter('Latency', timed, '$.responseLatency', cloudwatch.Unit.MILLISECONDS),
      };
    });
  }

  private alarm(
    name: string,
    entry: RunbookEntry,
    props: Omit<cloudwatch.AlarmProps, 'alarmName' | 'alarmDescription'> & { description: string },
  ): cloudwatch.Alarm {
    const { description, ...rest } = props;
    const alarm = new cloudwatch.Alarm(this, name, {
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...rest,
      alarmName: `gatehouse-${this.stage}-${name}`,
      alarmDescription: `${description} Runbook: ${runbookLink(entry)}`,
    });
    this.notify(alarm);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Tells the topic when the alarm goes off and when it clears. */
  private notify(alarm: cloudwatch.Alarm): void {
    alarm.addAlarmAction(new cloudwatchActions.SnsAction(this.topic));
    alarm.addOkAction(new cloudwatchActions.SnsAction(this.topic));
  }
}
