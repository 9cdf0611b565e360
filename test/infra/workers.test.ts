/**
 * The workers' nested stack (shared/workers.ts): the publish-events function on the table's
 * stream with the filter, batch failure reporting and a dead-letter queue, the alarm on that
 * queue, least privilege, and cdk-nag clean.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  DEPLOYED_WORKERS as WORKERS,
  QUEUES,
  streamFilterPatterns,
  triggerOf,
  workerById,
} from '../../shared/workers.js';
import { EVENT_TYPES } from '../../shared/schemas/events.js';
import { INCIDENT_CHANGES } from '../../shared/vocabulary/workflows.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import {
  defaultTemplates,
  nagFindings,
  resourceCount,
  resourcesOfType,
  synth,
  type Synthesized,
  type Templates,
} from './synth.js';

type Json = Record<string, any>;

/** The default app's templates, with the ids its construct tree gives (./synth-cache.ts). */
const s = defaultTemplates();

/**
 * The settings a stage may give, all in one app: each shows on resources of its own (the alarms'
 * actions, the functions' environment, the queues' deletion policy), so one synth answers the
 * three tests below that check them. With every route: the model id must reach every function.
 */
const CONFIGURED = {
  alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:gatehouse-paging',
  bedrockModelId: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
  deletionProtection: false,
} as const;
let configuredApp: Synthesized | undefined;
const configured = (): Synthesized => (configuredApp ??= synth(CONFIGURED));

const publisher = workerById('publish-events');
const publisherTrigger = triggerOf('publish-events', 'table-stream');

/** Logical ids, in the workers' stack, of a worker's function and its dead-letter queue. */
function workerIds(id: string): Templates['workerFunctions'][string] {
  const ids = s.workerFunctions[id];
  if (!ids) throw new Error(`no function for worker ${id}`);
  return ids;
}
const functionId = (id: string) => workerIds(id).function;
const deadLettersId = (id: string): string => {
  const queueId = workerIds(id).deadLetterQueue;
  if (!queueId) throw new Error(`worker ${id} has no dead-letter queue of its own`);
  return queueId;
};

function resource(logical: string): Json {
  return (s.workers.toJSON() as { Resources: Record<string, Json> }).Resources[logical]!;
}

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** The IAM statements of a worker's own role. */
function statementsOf(workerId: string): Statement[] {
  const fn = resource(functionId(workerId));
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(s.workers, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

describe('workers stack', () => {
  it('holds one function per worker: nodejs24.x on arm64, ESM bundle, the settings config.ts needs', () => {
    expect(resourcesOfType(s.workers, 'AWS::Lambda::Function')).toHaveLength(WORKERS.length);
    // Notifications are sent in AWS too, from their queue.
    expect(s.workerFunctions['send-notifications']).toBeDefined();
    const fn = resource(functionId(publisher.id)).Properties as Json;
    expect(fn).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: publisher.timeoutSeconds,
      MemorySize: publisher.memoryMb,
    });
    const env = fn.Environment.Variables as Json;
    for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'EVENT_BUS_NAME', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID']) {
      expect(env[name], name).toEqual({ Ref: expect.any(String) });
    }
    // In AWS the adapter calls PutEvents: no local mode.
    expect(env.EVENT_BUS_MODE).toBeUndefined();
    expect(env).toMatchObject({ GATEHOUSE_STAGE: 'test', NODE_OPTIONS: '--enable-source-maps' });
  });

  it('the table has a NEW_IMAGE stream, which the stack hands to the workers', () => {
    s.parent.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    const [[tableId]] = resourcesOfType(s.parent, 'AWS::DynamoDB::GlobalTable') as [[string, Json]];
    const stackId = s.workersStackId;
    const params = resourcesOfType(s.parent, 'AWS::CloudFormation::Stack').find(([id]) => id === stackId)![1].Properties
      .Parameters;
    expect(params.TableStreamArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
  });

  it("the workers get the API stage's URL as PUBLIC_API_URL: the acknowledgement links they send are absolute", () => {
    const env = resource(functionId(publisher.id)).Properties.Environment.Variables as Json;
    expect(env.PUBLIC_API_URL).toEqual({ Ref: 'PublicApiUrl' });
    const stackId = s.workersStackId;
    const params = resourcesOfType(s.parent, 'AWS::CloudFormation::Stack').find(([id]) => id === stackId)![1].Properties
      .Parameters;
    const [[restApiId]] = resourcesOfType(s.parent, 'AWS::ApiGateway::RestApi') as [[string, Json]];
    const url = JSON.stringify(params.PublicApiUrl);
    expect(url).toContain(`{"Ref":"${restApiId}"}`);
    expect(url).toContain('.execute-api.');
  });

  it('each worker has a dead-letter queue and an alarm: its own, or the one of the queue it reads', () => {
    // A queue's dead-letter queue is in the parent stack, with the queue (lib/queues.ts).
    expect(resourcesOfType(s.workers, 'AWS::SQS::Queue')).toHaveLength(
      WORKERS.filter((w) => w.trigger.kind !== 'queue').length,
    );
    const alarms = resourcesOfType(s.workers, 'AWS::CloudWatch::Alarm').map(
      ([, a]) => a.Properties.AlarmName as string,
    );
    expect(alarms.sort()).toEqual(WORKERS.map((w) => `gatehouse-test-${w.id}-dead-letters`).sort());
  });

  /** The table-stream mapping of a worker, checked to read the stream, report failures per record and dead-letter. */
  function streamMapping(id: string): Json {
    const trigger = triggerOf(id, 'table-stream');
    const fnId = functionId(id);
    const [, mapping] = resourcesOfType(s.workers, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
    )!;
    const queueId = deadLettersId(id);
    expect(mapping.Properties).toMatchObject({
      FunctionName: { Ref: fnId },
      EventSourceArn: { Ref: 'TableStreamArn' },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: trigger.batchSize,
      MaximumRetryAttempts: trigger.retryAttempts,
      BisectBatchOnFunctionError: false,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    const filters = mapping.Properties.FilterCriteria.Filters as { Pattern: string }[];
    const patterns = filters.map((f) => JSON.parse(f.Pattern) as Json);
    expect(patterns).toEqual(streamFilterPatterns(trigger));
    return patterns.length === 1 ? patterns[0]! : patterns;
  }

  it('the table stream has two consumers at most: DynamoDB Streams throttles a shard read by more at once', () => {
    const mappings = resourcesOfType(s.workers, 'AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify({ Ref: 'TableStreamArn' }),
    );
    expect(mappings).toHaveLength(WORKERS.filter((w) => w.trigger.kind === 'table-stream').length);
    expect(mappings.length).toBeLessThanOrEqual(2);
  });

  it('publish-events reads the stream: INSERTs of EVENT and OUTBOX items only, failures reported per record, dead-lettered', () => {
    expect(streamMapping(publisher.id)).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['EVENT', 'OUTBOX'] } } },
    });
    expect(publisherTrigger.filters).toEqual([{ eventNames: ['INSERT'], entities: ['EVENT', 'OUTBOX'] }]);
  });

  it('count-analytics reads the stream: new and changed EVENT and INCIDENT items, new pending list counts, failures reported per record, dead-lettered', () => {
    expect(streamMapping('count-analytics')).toEqual([
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['EVENT', 'INCIDENT'] } } } },
      { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['INCIDENT_LIST_COUNTS'] } } } },
    ]);
    // It writes counters and markers in the table, and publishes nothing; it writes no audit
    // entry, so it may not make MACs with the audit key either (grants.audit), nor use any key.
    const actions = statementsOf('count-analytics').flatMap((st) => [st.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:Query']),
    );
    expect(actions.filter((a) => a.startsWith('events:') || a.startsWith('kms:'))).toEqual([]);
  });

  it('the dead-letter queue is encrypted, refuses plain HTTP and keeps messages 14 days', () => {
    const queueId = deadLettersId(publisher.id);
    expect(resource(queueId)).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 },
    });
    const policy = resourcesOfType(s.workers, 'AWS::SQS::QueuePolicy').find(
      ([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: queueId }]),
    )![1];
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('an alarm fires as soon as the dead-letter queue holds a message', () => {
    const queueId = deadLettersId(publisher.id);
    s.workers.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'gatehouse-test-publish-events-dead-letters',
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Statistic: 'Maximum',
      Period: 60,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmDescription: Match.stringLikeRegexp('dead-letter queue'),
    });
  });

  it("with an alarm topic, every dead-letter alarm notifies it when it fires and when it clears; without, the stack's own", () => {
    const arn = CONFIGURED.alarmTopicArn;
    const withTopic = configured();
    const alarms = resourcesOfType(withTopic.workers, 'AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(WORKERS.length);
    for (const [, alarm] of alarms) expect(alarm.Properties).toMatchObject({ AlarmActions: [arn], OKActions: [arn] });
    expect(resourcesOfType(withTopic.parent, 'AWS::SNS::Topic')).toEqual([]);
    // Without: the stack's topic (test/infra/observability.test.ts follows the reference).
    for (const [, alarm] of resourcesOfType(s.workers, 'AWS::CloudWatch::Alarm'))
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: expect.any(String) }]);
  });

  it('a configured Bedrock model id reaches every function; by default config.ts picks its own', () => {
    const model = CONFIGURED.bedrockModelId;
    const withModel = configured();
    for (const template of [withModel.workers, ...withModel.nested.values()]) {
      for (const [, fn] of resourcesOfType(template, 'AWS::Lambda::Function')) {
        expect(fn.Properties.Environment.Variables.BEDROCK_MODEL_ID).toBe(model);
      }
    }
    expect(
      resource(functionId('transcription-finished')).Properties.Environment.Variables.BEDROCK_MODEL_ID,
    ).toBeUndefined();
  });

  it('without deletion protection the queue goes with the stack', () => {
    const unprotected = configured();
    const queues = [
      ...resourcesOfType(unprotected.workers, 'AWS::SQS::Queue'),
      ...resourcesOfType(unprotected.parent, 'AWS::SQS::Queue'),
    ];
    expect(queues).toHaveLength(WORKERS.filter((w) => w.trigger.kind !== 'queue').length + 2 * QUEUES.length);
    for (const [, queue] of queues) expect(queue.DeletionPolicy).toBe('Delete');
  });
});

describe('publish-events least privilege', () => {
  const statements = () => statementsOf(publisher.id);
  const actions = (st: { Action: string | string[] }) => [st.Action].flat();

  it('may PutEvents, only to the project bus', () => {
    const put = statements().filter((st) => actions(st).some((a) => a.startsWith('events:')));
    expect(put).toHaveLength(1);
    expect(actions(put[0]!)).toEqual(['events:PutEvents']);
    expect(put[0]!.Resource).toEqual({ Ref: 'EventBusArn' });
    const stackId = s.workersStackId;
    const params = resourcesOfType(s.parent, 'AWS::CloudFormation::Stack').find(([id]) => id === stackId)![1].Properties
      .Parameters;
    const [[busId]] = resourcesOfType(s.parent, 'AWS::Events::EventBus') as [[string, Json]];
    expect(params.EventBusArn).toEqual({ 'Fn::GetAtt': [busId, 'Arn'] });
  });

  it('reads the table stream only (no table data), and sends only to its dead-letter queue', () => {
    const all = statements();
    const dynamo = all.filter(
      (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && !(st as { Condition?: unknown }).Condition,
    );
    expect(dynamo).toHaveLength(1);
    // Its heartbeat: one UpdateItem, on the counters' partitions only.
    const heartbeat = all.filter(
      (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && (st as { Condition?: unknown }).Condition,
    );
    expect(heartbeat).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      }),
    ]);
    expect(actions(dynamo[0]!).sort()).toEqual(
      ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'].sort(),
    );
    expect(dynamo[0]!.Resource).toEqual({ Ref: 'TableStreamArn' });
    const queueId = deadLettersId(publisher.id);
    const sqs = all.filter((st) => actions(st).some((a) => a.startsWith('sqs:')));
    expect(sqs).toHaveLength(1);
    expect(actions(sqs[0]!)).toContain('sqs:SendMessage');
    expect(sqs[0]!.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    const other = all.flatMap(actions).filter((a) => !/^(dynamodb|events|sqs|logs|xray):/.test(a));
    expect(other).toEqual([]);
    // X-Ray's trace actions alone have no resource-level permissions.
    for (const st of all.filter((x) => !actions(x).every((a) => a.startsWith('xray:'))))
      expect(JSON.stringify(st.Resource)).not.toBe('"*"');
  });

  it('its role carries no managed policy', () => {
    for (const [, role] of resourcesOfType(s.workers, 'AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('sla-escalation runs on a schedule', () => {
  const sla = workerById('sla-escalation');
  const trigger = triggerOf('sla-escalation', 'schedule');

  it('an EventBridge rule starts it every minute; what it cannot deliver, and a failed run, go to its dead-letter queue', () => {
    const fnId = functionId(sla.id);
    const queueId = deadLettersId(sla.id);
    const rules = resourcesOfType(s.workers, 'AWS::Events::Rule').filter(
      ([, r]) => r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === fnId,
    );
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: `rate(${trigger.everyMinutes} minute)`,
      State: 'ENABLED',
      Targets: [
        { DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } }, RetryPolicy: { MaximumRetryAttempts: 2 } },
      ],
    });
    // The default bus: a schedule has no bus of its own.
    expect(rule.Properties.EventBusName).toBeUndefined();
    s.workers.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId },
      MaximumRetryAttempts: trigger.retryAttempts,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    s.workers.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
    // Only the rule may put into the queue from outside.
    const policy = resourcesOfType(s.workers, 'AWS::SQS::QueuePolicy').find(
      ([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: queueId }]),
    )![1];
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [ruleId, 'Arn'] } } },
      }),
    );
    expect(resource(fnId).Properties.Timeout).toBeLessThan(trigger.everyMinutes * 60);
  });

  it('reads and writes the table (no stream, no bus) and sends only to its own queue', () => {
    const all = statementsOf(sla.id);
    const actions = all.flatMap((st) => [st.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'dynamodb:PutItem',
        'dynamodb:DeleteItem',
        'sqs:SendMessage',
      ]),
    );
    expect(actions.filter((a) => a.startsWith('dynamodb:') && /Stream|GetRecords|GetShardIterator/.test(a))).toEqual(
      [],
    );
    // Besides sealing the audit entries of its changes (grants.audit), and assuming the TenantData
    // role for each tenant's items (docs/architecture.md, 27).
    expect(actions.filter((a) => !/^(dynamodb|sqs|logs|xray):/.test(a))).toEqual([
      'kms:GenerateMac',
      'sts:AssumeRole',
      'sts:TagSession',
    ]);
    const queueId = deadLettersId(sla.id);
    for (const st of all.filter((x) => [x.Action].flat().some((a) => a.startsWith('sqs:')))) {
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    }
    // X-Ray's trace actions alone have no resource-level permissions.
    for (const st of all.filter((x) => ![x.Action].flat().every((act) => act.startsWith('xray:'))))
      expect(JSON.stringify(st.Resource)).not.toBe('"*"');
  });
});

describe("transcription-finished runs on Transcribe's state changes", () => {
  const worker = workerById('transcription-finished');

  it("a rule on the default bus matches our jobs' COMPLETED and FAILED changes only", () => {
    const fnId = functionId(worker.id);
    const queueId = deadLettersId(worker.id);
    const [rule] = resourcesOfType(s.workers, 'AWS::Events::Rule').filter(
      ([, r]) => r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === fnId,
    );
    expect(rule![1].Properties).toMatchObject({
      EventPattern: {
        source: ['aws.transcribe'],
        'detail-type': ['Transcribe Job State Change'],
        detail: { TranscriptionJobName: [{ prefix: 'gh-' }], TranscriptionJobStatus: ['COMPLETED', 'FAILED'] },
      },
      Targets: [{ DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } } }],
    });
    expect(rule![1].Properties.EventBusName).toBeUndefined();
    s.workers.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId },
      MaximumRetryAttempts: 2,
    });
  });

  it('may read our jobs, read objects, invoke models and write the table: nothing else', () => {
    const all = statementsOf(worker.id);
    const actions = all.flatMap((st) => [st.Action].flat());
    expect(actions.filter((a) => a.startsWith('transcribe:'))).toEqual(['transcribe:GetTranscriptionJob']);
    expect(actions.filter((a) => a.startsWith('s3:')).sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(actions).toContain('bedrock:InvokeModel');
    expect(actions).toContain('dynamodb:UpdateItem');
    // Besides sealing the audit entries of its changes (grants.audit), and assuming the TenantData
    // role for the tenant's items and objects.
    expect(actions.filter((a) => !/^(dynamodb|s3|transcribe|bedrock|sqs|logs|xray):/.test(a))).toEqual([
      'kms:GenerateMac',
      'sts:AssumeRole',
      'sts:TagSession',
    ]);
  });
});

describe('workers stack size and cdk-nag', () => {
  it('stays far under 500 resources, and adds one resource to the parent', () => {
    // About 8 a worker (function, role, policy, log group, trigger, dead letters, alarm, ...), and
    // the connectors' schedule group and role: far under CloudFormation's 500 a stack.
    expect(resourceCount(s.workers)).toBeLessThan(10 * WORKERS.length);
    expect(resourceCount(s.workers)).toBeLessThan(250);
    expect(resourcesOfType(s.parent, 'AWS::Lambda::Function')).toHaveLength(0);
  });

  it.each([
    ['default', {}],
    ['with tracing', { tracing: true }],
  ] as const)('no unacknowledged cdk-nag finding in the workers stack (%s)', (_name, overrides) => {
    const variant = synth({ ...overrides, routes: [] });
    const path = variant.stack.workersStack.node.path;
    const findings = nagFindings(variant.app).filter((f) => f.paths.some((p) => p.startsWith(`${path}/`)));
    expect(findings).toEqual([]);
  });
});

describe('queues and the workers they trigger', () => {
  /** The parent's logical id of a queue (or dead-letter queue) of lib/queues.ts. */
  const parentQueue = (id: string) => {
    const found = resourcesOfType(s.parent, 'AWS::SQS::Queue').find(([logical]) =>
      logical.startsWith(`Queues${id.replace(/-/g, '')}`),
    );
    if (!found) throw new Error(`no queue ${id}`);
    return found;
  };

  it('each queue is encrypted, has a dead-letter queue it moves a message to after its receive limit, and keeps it 14 days there', () => {
    for (const def of QUEUES) {
      const [deadLettersId, deadLetters] = resourcesOfType(s.parent, 'AWS::SQS::Queue').find(([logical]) =>
        logical.startsWith(`Queues${def.id.replace(/-/g, '')}deadletters`),
      )!;
      const [, queue] = resourcesOfType(s.parent, 'AWS::SQS::Queue').find(
        ([logical, q]) =>
          logical !== deadLettersId &&
          logical.startsWith(`Queues${def.id.replace(/-/g, '')}`) &&
          q.Properties.RedrivePolicy,
      )!;
      expect(queue.Properties).toMatchObject({
        SqsManagedSseEnabled: true,
        VisibilityTimeout: def.visibilityTimeoutSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] },
          maxReceiveCount: def.maxReceiveCount,
        },
      });
      expect(deadLetters.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    }
    expect(parentQueue('webhook-dispatch')).toBeDefined();
  });

  it("a rule on the service's bus sends every subscribable type to the dispatch queue, and nothing else", () => {
    const rules = resourcesOfType(s.parent, 'AWS::Events::Rule').filter(([, r]) =>
      JSON.stringify(r.Properties.Targets ?? []).includes('Queues'),
    );
    // One per queue the bus feeds: webhook dispatch, notifications, workflow runs, the service's
    // announcements, the data lake, the large map files' extractions, the plan changes.
    expect(rules).toHaveLength(7);
    // A large map file reaches its worker from the outbox message its extract call writes (the
    // route has no queue client), and only that message.
    const [, extractions] = rules.find(([, r]) =>
      JSON.stringify(r.Properties.Targets).includes('Queuesmapextractions'),
    )!;
    expect(extractions.Properties.EventPattern).toEqual({
      source: ['gatehouse.infrastructure'],
      'detail-type': ['infrastructure.extraction_requested'],
    });
    expect(extractions.Properties.Targets[0].DeadLetterConfig).toBeDefined();
    const [, lake] = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('Queuesdatalake'))!;
    expect(lake.Properties.EventPattern).toEqual({
      source: ['gatehouse.events', 'gatehouse.incidents'],
      'detail-type': [...EVENT_TYPES, ...INCIDENT_CHANGES],
    });
    expect(lake.Properties.Targets[0].DeadLetterConfig).toBeDefined();
    const [, episodes] = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('Queuesvesselepisodes'))!;
    expect(episodes.Properties.EventPattern).toEqual({
      source: ['gatehouse.vessels', 'gatehouse.watchlist', 'gatehouse.connectors'],
      'detail-type': ['vessel.episode_found', 'watchlist.alert_found', 'hazard.alert_found', 'bgp.alert_found'],
    });
    const [, workflows] = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('Queuesworkflowruns'))!;
    expect(workflows.Properties.EventPattern).toEqual({
      source: ['gatehouse.events', 'gatehouse.incidents'],
      'detail-type': [...EVENT_TYPES, ...INCIDENT_CHANGES],
    });
    const [, rule] = rules.find(([, r]) => JSON.stringify(r.Properties.Targets).includes('Queueswebhookdispatch'))!;
    const [, notifications] = rules.find(([, r]) =>
      JSON.stringify(r.Properties.Targets).includes('Queuesnotifications'),
    )!;
    expect(notifications.Properties.EventPattern).toEqual({
      source: ['gatehouse.incidents'],
      'detail-type': ['incident.notification'],
    });
    expect(rule.Properties.EventBusName).toBeDefined();
    expect(rule.Properties.EventPattern.source).toEqual(['gatehouse.events', 'gatehouse.incidents']);
    expect(rule.Properties.EventPattern['detail-type']).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(rule.Properties.EventPattern['detail-type']).not.toContain('incident.notification');
    expect(rule.Properties.Targets[0].DeadLetterConfig).toBeDefined();
  });

  it("the connector pollers have no rule of their own: Scheduler's role may invoke them and send to their dead letters, nothing else", () => {
    const fns = [
      ['connector-poll', 'gatehouse-test-connector-poll', 512],
      ['connector-poll-large', 'gatehouse-test-connector-poll-large', 2048],
    ] as const;
    for (const [id, name, memory] of fns) {
      const fnId = functionId(id);
      const [, props] = resourcesOfType(s.workers, 'AWS::Lambda::Function').find(([fid]) => fid === fnId)!;
      expect(props.Properties.FunctionName).toBe(name);
      // Only the RPKI export's polls pay for 2 GB.
      expect(props.Properties.MemorySize).toBe(memory);
      expect(
        resourcesOfType(s.workers, 'AWS::Events::Rule').filter(([, r]) =>
          JSON.stringify(r.Properties.Targets).includes(fnId),
        ),
      ).toEqual([]);
    }
    const groups = resourcesOfType(s.workers, 'AWS::Scheduler::ScheduleGroup');
    expect(groups).toHaveLength(1);
    expect(groups[0]![1].Properties.Name).toBe('gatehouse-test-connectors');
    const [, role] = resourcesOfType(s.workers, 'AWS::IAM::Role').find(([, r]) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
    )!;
    expect(JSON.stringify(role.Properties.RoleName)).toContain('connector-scheduler');
    const policies = resourcesOfType(s.workers, 'AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.Roles).includes(
        JSON.stringify({ Ref: resourcesOfType(s.workers, 'AWS::IAM::Role').find(([, r]) => r === role)![0] }),
      ),
    );
    const actions = policies
      .flatMap(([, p]) =>
        p.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()),
      )
      .sort();
    expect([...new Set(actions)]).toEqual([
      'lambda:InvokeFunction',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    const invoke = policies
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .find((st: { Action: string | string[] }) => [st.Action].flat().includes('lambda:InvokeFunction'));
    expect([invoke.Resource].flat()).toHaveLength(2);
  });

  it('the webhook workers read their queues in batches, report failures per message and are capped in concurrency', () => {
    for (const id of ['webhook-dispatch', 'webhook-deliver']) {
      const trigger = triggerOf(id, 'queue');
      const fnId = functionId(id);
      const [, mapping] = resourcesOfType(s.workers, 'AWS::Lambda::EventSourceMapping').find(
        ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
      )!;
      expect(mapping.Properties).toMatchObject({
        BatchSize: trigger.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: trigger.maxConcurrency },
      });
    }
  });

  it('export-lake gathers its batches: 100 messages or a 5 s window, whichever comes first', () => {
    const fnId = functionId('export-lake');
    const [, mapping] = resourcesOfType(s.workers, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
    )!;
    expect(mapping.Properties).toMatchObject({ BatchSize: 100, MaximumBatchingWindowInSeconds: 5 });
  });

  it("the dispatcher may send to the deliveries queue only; the deliverer to its dead letters only, and may change its messages' visibility", () => {
    const sends = (id: string) => statementsOf(id).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
    expect(sends('webhook-dispatch')).toEqual([
      expect.objectContaining({ Resource: { Ref: 'QueueWebhookDeliveriesArn' } }),
    ]);
    expect(sends('webhook-deliver')).toEqual([
      expect.objectContaining({ Resource: { Ref: 'QueueWebhookDeliveriesDeadLettersArn' } }),
    ]);
    const consume = statementsOf('webhook-deliver').find((st) =>
      [st.Action].flat().includes('sqs:ChangeMessageVisibility'),
    );
    expect(consume?.Resource).toEqual({ Ref: 'QueueWebhookDeliveriesArn' });
    // It opens the signing secrets with the key, and knows its queue's URL.
    expect(statementsOf('webhook-deliver').some((st) => [st.Action].flat().includes('kms:Decrypt'))).toBe(true);
    const env = resource(functionId('webhook-deliver')).Properties.Environment.Variables as Json;
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('QUEUE_URL_'))
        .sort(),
    ).toEqual(['QUEUE_URL_WEBHOOK_DELIVERIES', 'QUEUE_URL_WEBHOOK_DELIVERIES_DEAD_LETTERS']);
    expect(env.SECRETS_KEY_ID).toEqual({ Ref: 'SecretsKeyArn' });
  });
});
