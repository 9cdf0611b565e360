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
import { queueUrlVariable } from '../shared/adapters/queue.js';
import { allowedActions } from '../shared/iam.js';
import type { QueueTarget } from '../shared/workers.js';
import { ConnectorSchedules, connectorScheduleNames, importConnectorSchedules } from './connector-schedules.js';
import { importQueues, usesAuditKey } from './grants.js';
import type { FunctionBundles } from './function-bundles.js';
import type { FunctionLogging } from './function.js';
import { WorkerFunction } from './worker-function.js';

/** The queue URL variables a worker needs: the queues its grants send to, and the one it reads. */
function queueVariables(worker: WorkerDef): string[] {
  const targets = [
    ...allowedActions(worker.grants).queues,
    ...(worker.trigger.kind === 'queue' ? [worker.trigger.queue] : []),
  ];
  return targets.map((t) => queueUrlVariable(t as QueueTarget));
}

export interface WorkersStackProps {
  readonly workers: readonly WorkerDef[];
  readonly services: ServiceRefs & { tableStreamArn: string };
  /** PUBLIC_API_URL: where people reach the API (the stage's URL), for the links they are sent. */
  readonly publicApiUrl: string;
  readonly stage: string;
  readonly version: string;
  readonly bedrockModelId?: string;
  /** The sender of email (EMAIL_FROM) for the workers whose grants send it. */
  readonly emailFrom?: string;
  /** The alarms notify this SNS topic when set. */
  readonly alarmTopicArn?: string;
  readonly logging: FunctionLogging;
  readonly logRetention: logs.RetentionDays;
  /** Keep the dead-letter queues when the stack goes. */
  readonly retain: boolean;
  /** The stack's functions, built together. */
  readonly bundles: FunctionBundles;
}

export class WorkersStack extends NestedStack {
  readonly workers = new Map<string, WorkerFunction>();

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, { description: 'Gatehouse workers: the functions that are not routes' });
    const s = props.services;
    // Memoised: a queue may be both a worker's trigger and another's grant.
    const params = new Map<string, string>();
    const param = (name: string, value: string) => {
      let ref = params.get(name);
      if (ref === undefined) {
        this.setParameter(name, value);
        ref = new CfnParameter(this, name, { type: 'String' }).valueAsString;
        params.set(name, ref);
      }
      return ref;
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
      LOG_LEVEL: props.logging.level,
      ...(props.bedrockModelId ? { BEDROCK_MODEL_ID: props.bedrockModelId } : {}),
    };
    // Only the ARNs some worker's grants name become parameters.
    const grants = props.workers.map((w) => w.grants);
    const arnParam = (name: string, value: string, used: boolean) => (used ? param(name, value) : '');
    const arns = {
      tableArn: arnParam(
        'TableArn',
        s.tableArn,
        grants.some((g) => g.table),
      ),
      bucketArn: arnParam(
        'BucketArn',
        s.bucketArn,
        grants.some((g) => g.bucket),
      ),
      eventBusArn: arnParam(
        'EventBusArn',
        s.eventBusArn,
        grants.some((g) => g.eventBus),
      ),
      userPoolArn: arnParam(
        'UserPoolArn',
        s.userPoolArn,
        grants.some((g) => (g.userPool ?? []).length > 0),
      ),
      tableStreamArn: param('TableStreamArn', s.tableStreamArn),
      secretsKeyArn: grants.some((g) => g.secrets) ? param('SecretsKeyArn', s.secretsKeyArn) : '',
      auditKeyArn: grants.some(usesAuditKey) ? param('AuditKeyArn', s.auditKeyArn) : '',
      emailFrom: props.emailFrom,
      ...(grants.some((g) => g.schedules)
        ? { connectorSchedules: importConnectorSchedules(s.connectorSchedules, param) }
        : {}),
      lakeDatabasePrefix: s.lakeDatabasePrefix,
      tenantDataRoleArn: grants.some((g) => g.table || g.bucket) ? param('TenantDataRoleArn', s.tenantDataRoleArn) : '',
    };
    // The queues the workers send to, and those that trigger them (with their dead letters, for
    // the alarm): ARNs and URLs as parameters.
    const queues = importQueues(
      props.workers.flatMap((w) => [
        w.grants,
        ...(w.trigger.kind === 'queue'
          ? [
              { queues: { [w.trigger.queue]: 'send' as const } },
              { queues: { [w.trigger.queue]: 'dead-letters' as const } },
            ]
          : []),
      ]),
      s.queues,
      param,
    );
    const queueArns = queues.queueArns;

    const names = connectorScheduleNames(props.stage);
    const alarmTopic = props.alarmTopicArn
      ? sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn)
      : undefined;
    for (const worker of props.workers) {
      this.workers.set(
        worker.id,
        new WorkerFunction(this, worker.id, {
          worker,
          stage: props.stage,
          arns: { ...arns, queueArns },
          environment: {
            ...environment,
            ...(arns.secretsKeyArn && worker.grants.secrets ? { SECRETS_KEY_ID: arns.secretsKeyArn } : {}),
            ...(arns.auditKeyArn && usesAuditKey(worker.grants) ? { AUDIT_KEY_ID: arns.auditKeyArn } : {}),
            ...(props.emailFrom && worker.grants.email ? { EMAIL_FROM: props.emailFrom } : {}),
            ...(arns.connectorSchedules && worker.grants.schedules ? arns.connectorSchedules.environment : {}),
            ...(worker.grants.lake ? { LAKE_DATABASE_PREFIX: s.lakeDatabasePrefix } : {}),
            // Only the URLs of the queues this worker sends to or reads.
            ...Object.fromEntries(
              Object.entries(queues.environment).filter(([name]) => queueVariables(worker).includes(name)),
            ),
          },
          triggerQueue:
            worker.trigger.kind === 'queue'
              ? {
                  arn: queueArns[worker.trigger.queue]!,
                  deadLettersArn: queueArns[`${worker.trigger.queue}:dead-letters`]!,
                }
              : undefined,
          logging: props.logging,
          logRetention: props.logRetention,
          retain: props.retain,
          alarmTopic,
          bundles: props.bundles,
          // The routes name it and its dead letters (lib/connector-schedules.ts).
          ...(worker.trigger.kind === 'scheduler'
            ? {
                functionName: names.pollers[worker.trigger.poller].poller,
                deadLetterQueueName: names.pollers[worker.trigger.poller].deadLetters,
              }
            : {}),
        }),
      );
    }
    const pollers = props.workers.filter((w) => w.trigger.kind === 'scheduler').map((w) => this.workers.get(w.id)!);
    if (pollers.length > 0) {
      new ConnectorSchedules(this, 'ConnectorSchedules', {
        stage: props.stage,
        pollers: pollers.map((p) => ({ function: p.function, deadLetters: p.deadLetterQueue })),
      });
    }
  }
}
