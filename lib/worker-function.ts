/**
 * The Lambda of one worker (shared/workers.ts), with its own role and log group, the event source
 * mapping of its trigger, a dead-letter queue for what the mapping gives up on, and an alarm when
 * that queue holds anything. Granted the worker's `grants`, reading its trigger, and sending to
 * its queue: nothing else.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { streamFilterPattern, type WorkerDef } from '../shared/workers.js';
import { GatehouseFunction } from './function.js';
import { grantStatements, type ServiceArns } from './grants.js';

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
  readonly tracing: boolean;
  readonly logRetention: logs.RetentionDays;
  /** Keep the dead-letter queue (and what it holds) when the stack goes. */
  readonly retain: boolean;
}

export class WorkerFunction extends Construct {
  readonly function: GatehouseFunction;
  readonly deadLetterQueue: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  readonly eventSourceMapping: lambda.EventSourceMapping;

  constructor(scope: Construct, id: string, props: WorkerFunctionProps) {
    super(scope, id);
    const { worker } = props;

    // An own role: the default one carries the managed AWSLambdaBasicExecutionRole (any log group).
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Gatehouse worker ${worker.id}`,
    });
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    logGroup.grantWrite(role);
    for (const statement of grantStatements(worker.grants, props.arns)) role.addToPrincipalPolicy(statement);
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: STREAM_READ_ACTIONS, resources: [props.arns.tableStreamArn] }));

    this.function = new GatehouseFunction(this, 'Function', {
      handlerFile: worker.handler,
      description: `Gatehouse worker ${worker.id}: ${worker.description}`,
      role,
      logGroup,
      environment: props.environment,
      timeout: Duration.seconds(worker.timeoutSeconds),
      memorySize: worker.memoryMb,
      tracing: props.tracing,
    });

    // Lambda sends it the position of each batch it gave up on (shard, first and last sequence
    // numbers), not the records: docs/events.md says how to publish them again.
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DEAD_LETTER_RETENTION,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter destination (onFailure) of the worker\'s stream event source ' +
        'mapping, which cdk-nag does not recognise; a dead-letter queue needs no dead-letter queue of its own.',
    });

    const { trigger } = worker;
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
      filters: [lambda.FilterCriteria.filter(streamFilterPattern(trigger))],
      onFailure: new SqsDlq(this.deadLetterQueue),
    });

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLettersAlarm', {
      // A name operators can find and subscribe their paging to.
      alarmName: `gatehouse-${props.stage}-${worker.id}-dead-letters`,
      alarmDescription:
        `Gatehouse worker ${worker.id} gave up on stream records: they are in its dead-letter queue ` +
        'and must be published again (docs/events.md, "When publishing fails").',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    if (props.tracing) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
      });
    }
  }
}
