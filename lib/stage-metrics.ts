/**
 * The metrics a stage is watched by, in one place for the dashboard (lib/dashboard.ts) and the
 * alarms (lib/alarms.ts): the API's by route group (metric filters on the access log), the table
 * stream's iterator age, every queue, and the business metrics the functions emit in Embedded
 * Metric Format (Powertools Metrics, namespace `Gatehouse`, dimensions `service` and `stage`:
 * docs/observability.md).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { RouteDef } from '../shared/routes/index.js';
import { METRICS_NAMESPACE, POWERTOOLS_SERVICE_NAME } from './function.js';
import { routeGroups, type RouteGroup } from './route-groups.js';
import type { WorkerFunction } from './worker-function.js';

export const FIVE_MINUTES = Duration.minutes(5);

/** Below this many requests in 5 minutes, a route group's p99 and the 5xx rate are not judged. */
export const MIN_REQUESTS_JUDGED = 20;

export interface StageMetricsProps {
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
}

/** One route group's figures, from the access log. */
export interface RouteGroupMetrics {
  readonly group: RouteGroup;
  readonly requests: cloudwatch.Metric;
  readonly clientErrors: cloudwatch.Metric;
  readonly serverErrors: cloudwatch.Metric;
  /** p99 of `responseLatency`, the streaming routes left out. */
  readonly latency: cloudwatch.Metric;
}

export class StageMetrics {
  readonly stage: string;
  readonly restApiName: string;
  readonly table: dynamodb.ITableV2;
  readonly api: readonly RouteGroupMetrics[];
  /** The consumers of the table's stream, and each one's iterator age (1-minute maximum). */
  readonly streamConsumers: readonly WorkerFunction[];
  readonly iteratorAges: readonly cloudwatch.Metric[];
  /** Every queue and dead-letter queue: lib/queues.ts, and the workers' own dead letters. */
  readonly queues: ReadonlyMap<string, sqs.IQueue>;

  /** `scope` owns the access log's metric filters. */
  constructor(scope: Construct, props: StageMetricsProps) {
    this.stage = props.stage;
    this.restApiName = props.restApiName;
    this.table = props.table;
    this.api = routeGroups(props.routes).map((group) => apiGroupMetrics(scope, props, group));
    this.streamConsumers = [...props.workers.values()].filter((w) => w.worker.trigger.kind === 'table-stream');
    this.iteratorAges = this.streamConsumers.map((w) =>
      w.function.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1), label: w.worker.id }),
    );
    const queues = new Map<string, sqs.IQueue>(props.queues);
    for (const w of props.workers.values())
      if (w.worker.trigger.kind !== 'queue') queues.set(`${w.worker.id}:dead-letters`, w.deadLetterQueue);
    this.queues = queues;
  }

  /** API Gateway's own figure for the whole stage (`Count`, `5XXError`, ...), summed over 5 minutes. */
  gateway(metricName: string): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      dimensionsMap: { ApiName: this.restApiName, Stage: this.stage },
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
  }

  /** The share of requests answered 5xx, 0 below MIN_REQUESTS_JUDGED requests. */
  serverErrorRate(): cloudwatch.MathExpression {
    return new cloudwatch.MathExpression({
      expression: `IF(requests >= ${MIN_REQUESTS_JUDGED}, 100 * errors / requests, 0)`,
      usingMetrics: { requests: this.gateway('Count'), errors: this.gateway('5XXError') },
      label: '5xx, % of requests',
      period: FIVE_MINUTES,
    });
  }

  /** A business metric of the contract: namespace Gatehouse, `service` and `stage` dimensions. */
  business(metricName: string, dims: Record<string, string> = {}, statistic = 'Sum'): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName,
      dimensionsMap: { service: POWERTOOLS_SERVICE_NAME, stage: this.stage, ...dims },
      statistic,
      period: FIVE_MINUTES,
    });
  }

  /** Every series of a business metric with dimensions of its own (one per feed, tool, ...). */
  businessSearch(metricName: string, extraDims: string[], label: string): cloudwatch.MathExpression {
    return new cloudwatch.MathExpression({
      expression: `SEARCH('{${METRICS_NAMESPACE},${['service', 'stage', ...extraDims].join(',')}} MetricName="${metricName}" stage="${this.stage}"', 'Sum', 300)`,
      usingMetrics: {},
      label,
      period: FIVE_MINUTES,
    });
  }

  /** The stage's ten functions with the highest `rank` of a Lambda metric. */
  topFunctions(metricName: string, stat: string, rank: string, label: string): cloudwatch.MathExpression {
    // CloudFormation names the stage's functions `Gatehouse-<stage>-...`.
    return new cloudwatch.MathExpression({
      expression: `SORT(SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" "Gatehouse-${this.stage}"', '${stat}', 300), ${rank}, DESC, 10)`,
      usingMetrics: {},
      label,
      period: FIVE_MINUTES,
    });
  }

  /** A metric of the table, summed over 5 minutes unless told. */
  tableMetric(metricName: string, statistic = 'Sum'): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: this.table.tableName },
      statistic,
      period: FIVE_MINUTES,
    });
  }
}

/**
 * A route group's requests, 4xx, 5xx and latency, from metric filters on the access log
 * (namespace `Gatehouse/Api/<group>`, dimension `stage`): API Gateway's per-method metrics would
 * cost a custom metric per method and statistic.
 */
function apiGroupMetrics(scope: Construct, props: StageMetricsProps, group: RouteGroup): RouteGroupMetrics {
  const namespace = `Gatehouse/Api/${group.id}`;
  const mine = `(${group.prefixes.map((p) => `$.resourcePath = "${p}*"`).join(' || ')})`;
  const timed = mine + group.streamingPaths.map((p) => ` && $.resourcePath != "${p}"`).join('');
  const filter = (name: string, pattern: string, metricValue: string, unit: cloudwatch.Unit) => {
    new logs.MetricFilter(scope, `${group.id}-${name}`, {
      logGroup: props.accessLogs,
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
      dimensionsMap: { stage: props.stage },
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
}
