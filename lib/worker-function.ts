/**
 * The Lambda of one worker (shared/workers.ts), with its own role and log group, its trigger (an
 * event source mapping on the table's stream, or an EventBridge rule: a schedule or a pattern on
 * the default bus), a dead-letter queue for what it gives up on, and an alarm when that queue
 * holds anything. Granted the worker's `grants`, reading its trigger, and sending to its queue:
 * nothing else. A worker on tenant data gets its table and bucket statements fenced to the
 * platform's partitions and objects, and assumes the TenantData role, with its own actions as the
 * session policy (TENANT_SESSION_POLICY), for each tenant's (docs/architecture.md, 27).
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { streamFilterPatterns, type EventRuleTrigger, type WorkerDef } from '../shared/workers.js';
import { GatehouseFunction, type FunctionLogging } from './function.js';
import { runbookLink } from './runbook.js';
import type { FunctionBundles } from './function-bundles.js';
import { HEARTBEAT_ACTIONS, tenantSessionPolicy, workerFencedToPlatform } from '../shared/iam.js';
import { acknowledgeGrantWildcards, grantStatements, onTenantData, type ServiceArns } from './grants.js';
import { ASSUME_TENANT_DATA } from './tenant-data.js';

/** The stream actions an event source mapping's function needs, on the stream only. */
export const STREAM_READ_ACTIONS = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];

/** The most SQS keeps a message: time to look at a failure and publish it again. */
export const DEAD_LETTER_RETENTION = Duration.days(14);

export interface WorkerFunctionProps {
  readonly worker: WorkerDef;
  /** Names the alarm: `gatehouse-<stage>-<worker id>-dead-letters`. */
  readonly stage: string;
  readonly arns: ServiceArns & { tableStreamArn: string };
  /** Settings every function reads through shared/config.ts. */
  readonly environment: Record<string, string>;
  readonly logging: FunctionLogging;
  readonly logRetention: logs.RetentionDays;
  /** Keep the dead-letter queue (and what it holds) when the stack goes. */
  readonly retain: boolean;
  /** Told when the alarm goes off and when it clears. */
  readonly alarmTopic?: sns.ITopic;
  /** For a queue trigger: the queue's ARN and its dead-letter queue's (lib/queues.ts). */
  readonly triggerQueue?: { arn: string; deadLettersArn: string };
  /** A fixed function name and dead-letter queue name (a `scheduler` trigger's: lib/connector-schedules.ts). */
  readonly functionName?: string;
  readonly deadLetterQueueName?: string;
  /** The stack's functions, built together (the worker's code is `bundles.code(worker.id)`). */
  readonly bundles: FunctionBundles;
}

export class WorkerFunction extends Construct {
  readonly worker: WorkerDef;
  readonly function: GatehouseFunction;
  /** Its own, or for a queue trigger the queue's (where its redrive policy moves what keeps failing). */
  readonly deadLetterQueue: sqs.IQueue;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  /** For a table-stream trigger. */
  readonly eventSourceMapping?: lambda.EventSourceMapping;
  /** For a schedule or an event-rule trigger (on the account's default bus). */
  readonly rule?: events.Rule;
  /** For a queue trigger. */
  readonly queueSource?: SqsEventSource;

  constructor(scope: Construct, id: string, props: WorkerFunctionProps) {
    super(scope, id);
    const { worker } = props;
    this.worker = worker;

    // An own role: the default one carries the managed AWSLambdaBasicExecutionRole (any log group).
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Gatehouse worker ${worker.id}`,
    });
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    logGroup.grantWrite(role);
    const fenced = workerFencedToPlatform(worker);
    for (const statement of grantStatements(worker.grants, props.arns, HEARTBEAT_ACTIONS, fenced))
      role.addToPrincipalPolicy(statement);
    const tenantData: Record<string, string> = {};
    if (onTenantData(worker)) {
      if (!props.arns.tenantDataRoleArn)
        throw new Error(`worker ${worker.id} has table or bucket grants: it needs the TenantData role`);
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: [...ASSUME_TENANT_DATA], resources: [props.arns.tenantDataRoleArn] }),
      );
      // The worker table is not in the bundle: its grants' session policy comes with the environment.
      tenantData.TENANT_DATA_ROLE_ARN = props.arns.tenantDataRoleArn;
      tenantData.TENANT_SESSION_POLICY = tenantSessionPolicy(worker.grants);
    }

    this.function = new GatehouseFunction(this, 'Function', {
      code: props.bundles.code(worker.id),
      description: `Gatehouse worker ${worker.id}: ${worker.description}`,
      role,
      logGroup,
      environment: { ...props.environment, ...tenantData },
      timeout: Duration.seconds(worker.timeoutSeconds),
      memorySize: worker.memoryMb,
      logging: props.logging,
      functionName: props.functionName,
    });

    const { trigger } = worker;
    if (trigger.kind === 'queue') {
      // The queue's own dead-letter queue (its redrive policy): what failed maxReceiveCount times,
      // and what the worker sends there itself.
      if (!props.triggerQueue) throw new Error(`worker ${worker.id} reads queue ${trigger.queue}: its ARNs are needed`);
      const queue = sqs.Queue.fromQueueArn(this, 'Queue', props.triggerQueue.arn);
      this.deadLetterQueue = sqs.Queue.fromQueueArn(this, 'DeadLetters', props.triggerQueue.deadLettersArn);
      // Grants receive, delete and change visibility on the queue (the retry delays).
      this.queueSource = new SqsEventSource(queue, {
        batchSize: trigger.batchSize,
        maxConcurrency: trigger.maxConcurrency,
        // Lets a batch fill (more than 10 messages need one): shared/workers.ts QueueTrigger.
        maxBatchingWindow:
          trigger.maxBatchingWindowSeconds === undefined
            ? undefined
            : Duration.seconds(trigger.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
      });
      this.function.addEventSource(this.queueSource);
    } else {
      // For a stream, Lambda sends it the position of each batch it gave up on (shard, first and
      // last sequence numbers), not the records: docs/events.md says how to publish them again. For
      // the other triggers it holds the events themselves.
      const deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
        queueName: props.deadLetterQueueName,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: DEAD_LETTER_RETENTION,
        removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      this.deadLetterQueue = deadLetterQueue;
      Validations.of(deadLetterQueue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is itself the dead-letter destination of the worker (its stream mapping's or its " +
          "asynchronous invocations' onFailure, its rule target's dead-letter queue), which cdk-nag does not " +
          'recognise; a dead-letter queue needs no dead-letter queue of its own.',
      });
      if (trigger.kind === 'table-stream') {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ actions: STREAM_READ_ACTIONS, resources: [props.arns.tableStreamArn] }),
        );
        this.eventSourceMapping = new lambda.EventSourceMapping(this, 'Trigger', {
          target: this.function,
          eventSourceArn: props.arns.tableStreamArn,
          // A new mapping reads the stream from its oldest record (24 h): nothing written before the
          // mapping existed is skipped.
          startingPosition: lambda.StartingPosition.TRIM_HORIZON,
          batchSize: trigger.batchSize,
          retryAttempts: trigger.retryAttempts,
          reportBatchItemFailures: true,
          // Failures are per record already; halving batches would only repeat the good ones.
          bisectBatchOnError: false,
          filters: streamFilterPatterns(trigger).map((p) => lambda.FilterCriteria.filter(p)),
          onFailure: new SqsDlq(deadLetterQueue),
        });
      } else {
        // Asynchronous invocations: a failed one is retried as the trigger says, then its event goes
        // to the dead-letter queue; an event EventBridge could not deliver at all goes there too.
        this.function.configureAsyncInvoke({
          retryAttempts: trigger.retryAttempts,
          onFailure: new destinations.SqsDestination(deadLetterQueue),
        });
        // Schedules made at run time invoke it (their role is allowed to): no rule of its own.
        if (trigger.kind !== 'scheduler')
          this.rule = new events.Rule(this, 'Trigger', {
            description: `Gatehouse worker ${worker.id}`,
            ...(trigger.kind === 'schedule'
              ? { schedule: events.Schedule.rate(Duration.minutes(trigger.everyMinutes)) }
              : { eventPattern: ruleEventPattern(trigger.pattern) }),
            targets: [new targets.LambdaFunction(this.function, { deadLetterQueue, retryAttempts: 2 })],
          });
      }
    }

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLettersAlarm', {
      // A name operators can find and subscribe their paging to.
      alarmName: `gatehouse-${props.stage}-${worker.id}-dead-letters`,
      alarmDescription:
        (trigger.kind === 'queue'
          ? `Gatehouse worker ${worker.id}: messages of its queue ${trigger.queue} are in the dead-letter queue, after their retries.`
          : trigger.kind === 'table-stream'
            ? `Gatehouse worker ${worker.id} gave up on stream records: their positions are in its dead-letter queue and must be published again.`
            : `Gatehouse worker ${worker.id} failed on events after its retries: they are in its dead-letter queue.`) +
        ` Runbook: ${runbookLink('dead-letters')}`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopic) {
      this.deadLetterAlarm.addAlarmAction(new cloudwatchActions.SnsAction(props.alarmTopic));
      this.deadLetterAlarm.addOkAction(new cloudwatchActions.SnsAction(props.alarmTopic));
    }

    acknowledgeGrantWildcards(this, worker.grants, props.arns.lakeDatabasePrefix, fenced);
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
    });
  }
}

/** A trigger's pattern (EventBridge's JSON names) as the CDK's EventPattern (camelCase names). */
export function ruleEventPattern(pattern: EventRuleTrigger['pattern']): events.EventPattern {
  return {
    source: [...pattern.source],
    detailType: [...pattern['detail-type']],
    ...(pattern.detail ? { detail: pattern.detail } : {}),
  };
}
