/**
 * A nested stack with the functions that are not routes (shared/workers.ts): each with its
 * trigger, dead-letter queue and alarm. Like the route stacks, it imports the shared services as
 * named parameters, so the parent stays small.
 */
import { CfnParameter, NestedStack } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { WorkerDef } from '../shared/workers.js';
import type { ServiceRefs } from './routes-stack.js';
import { WorkerFunction } from './worker-function.js';

export interface WorkersStackProps {
  readonly workers: readonly WorkerDef[];
  readonly services: ServiceRefs & { tableStreamArn: string };
  /** PUBLIC_API_URL: where people reach the API (the stage's URL), for the links they are sent. */
  readonly publicApiUrl: string;
  readonly stage: string;
  readonly version: string;
  readonly logLevel: string;
  readonly bedrockModelId?: string;
  /** The alarms notify this SNS topic when set. */
  readonly alarmTopicArn?: string;
  readonly tracing: boolean;
  readonly logRetention: logs.RetentionDays;
  /** Keep the dead-letter queues when the stack goes. */
  readonly retain: boolean;
}

export class WorkersStack extends NestedStack {
  readonly workers = new Map<string, WorkerFunction>();

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, { description: 'Gatehouse workers: the functions that are not routes' });
    const s = props.services;
    const param = (name: string, value: string) => {
      this.setParameter(name, value);
      return new CfnParameter(this, name, { type: 'String' }).valueAsString;
    };
    // The names shared/config.ts reads (it checks them all at cold start).
    const environment = {
      TABLE_NAME: param('TableName', s.tableName),
      BUCKET_NAME: param('BucketName', s.bucketName),
      EVENT_BUS_NAME: param('EventBusName', s.eventBusName),
      USER_POOL_ID: param('UserPoolId', s.userPoolId),
      USER_POOL_CLIENT_ID: param('UserPoolClientId', s.userPoolClientId),
      PUBLIC_API_URL: param('PublicApiUrl', props.publicApiUrl),
      GATEHOUSE_STAGE: props.stage,
      GATEHOUSE_VERSION: props.version,
      LOG_LEVEL: props.logLevel,
      ...(props.bedrockModelId ? { BEDROCK_MODEL_ID: props.bedrockModelId } : {}),
    };
    // Only the ARNs some worker's grants name become parameters.
    const grants = props.workers.map((w) => w.grants);
    const arnParam = (name: string, value: string, used: boolean) => (used ? param(name, value) : '');
    const arns = {
      tableArn: arnParam('TableArn', s.tableArn, grants.some((g) => g.table)),
      bucketArn: arnParam('BucketArn', s.bucketArn, grants.some((g) => g.bucket)),
      eventBusArn: arnParam('EventBusArn', s.eventBusArn, grants.some((g) => g.eventBus)),
      userPoolArn: arnParam('UserPoolArn', s.userPoolArn, grants.some((g) => (g.userPool ?? []).length > 0)),
      tableStreamArn: param('TableStreamArn', s.tableStreamArn),
    };

    const alarmTopic = props.alarmTopicArn ? sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn) : undefined;
    for (const worker of props.workers) {
      this.workers.set(
        worker.id,
        new WorkerFunction(this, worker.id, {
          worker,
          stage: props.stage,
          arns,
          environment,
          tracing: props.tracing,
          logRetention: props.logRetention,
          retain: props.retain,
          alarmTopic,
        }),
      );
    }
  }
}
