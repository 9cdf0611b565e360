/**
 * The workers' nested stack (shared/workers.ts): the publish-events function on the table's
 * stream with the filter, batch failure reporting and a dead-letter queue, the alarm on that
 * queue, least privilege, and cdk-nag clean.
 */
import { Match } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { WorkerFunction } from '../../lib/worker-function.js';
import { streamFilterPattern, workerById, WORKERS } from '../../shared/workers.js';
import { nagFindings, resourceCount, resourcesOfType, synth, type Synthesized } from './synth.js';

type Json = Record<string, any>;

let s: Synthesized;
beforeAll(() => {
  s = synth();
});

const publisher = workerById('publish-events');

function logicalId(construct: { node: { defaultChild?: unknown } } | undefined): string {
  return s.stack.workersStack.getLogicalId(construct!.node.defaultChild as lambda.CfnFunction);
}

function workerFunction(id: string): WorkerFunction {
  return s.stack.workersStack.workers.get(id)!;
}

function resource(logical: string): Json {
  return (s.workers.toJSON() as { Resources: Record<string, Json> }).Resources[logical]!;
}

describe('workers stack', () => {
  it('holds one function per worker: nodejs24.x on arm64, ESM bundle, the settings config.ts needs', () => {
    expect(resourcesOfType(s.workers, 'AWS::Lambda::Function')).toHaveLength(WORKERS.length);
    const fn = resource(logicalId(workerFunction(publisher.id).function)).Properties as Json;
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
    s.parent.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    const [[tableId]] = resourcesOfType(s.parent, 'AWS::DynamoDB::GlobalTable') as [[string, Json]];
    const stackId = s.stack.getLogicalId(s.stack.workersStack.nestedStackResource as never);
    const params = resourcesOfType(s.parent, 'AWS::CloudFormation::Stack').find(([id]) => id === stackId)![1].Properties.Parameters;
    expect(params.TableStreamArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
  });

  it('publish-events reads the stream: INSERTs of EVENT and OUTBOX items only, failures reported per record, dead-lettered', () => {
    const mappings = resourcesOfType(s.workers, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    const fnId = logicalId(workerFunction(publisher.id).function);
    const queueId = s.stack.workersStack.getLogicalId(workerFunction(publisher.id).deadLetterQueue.node.defaultChild as never);
    expect(mapping.Properties).toMatchObject({
      FunctionName: { Ref: fnId },
      EventSourceArn: { Ref: 'TableStreamArn' },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: publisher.trigger.batchSize,
      MaximumRetryAttempts: publisher.trigger.retryAttempts,
      BisectBatchOnFunctionError: false,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    const filters = mapping.Properties.FilterCriteria.Filters as { Pattern: string }[];
    expect(filters).toHaveLength(1);
    const pattern = JSON.parse(filters[0]!.Pattern) as Json;
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['EVENT', 'OUTBOX'] } } } });
    expect(pattern).toEqual(streamFilterPattern(publisher.trigger));
  });

  it('the dead-letter queue is encrypted, refuses plain HTTP and keeps messages 14 days', () => {
    const queue = workerFunction(publisher.id).deadLetterQueue;
    const queueId = s.stack.workersStack.getLogicalId(queue.node.defaultChild as never);
    expect(resource(queueId)).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 },
    });
    const [[, policy]] = resourcesOfType(s.workers, 'AWS::SQS::QueuePolicy') as [[string, Json]];
    expect(policy.Properties.Queues).toEqual([{ Ref: queueId }]);
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('an alarm fires as soon as the dead-letter queue holds a message', () => {
    const queueId = s.stack.workersStack.getLogicalId(workerFunction(publisher.id).deadLetterQueue.node.defaultChild as never);
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

  it('without deletion protection the queue goes with the stack', () => {
    const unprotected = synth({ deletionProtection: false, routes: [] });
    const [[, queue]] = resourcesOfType(unprotected.workers, 'AWS::SQS::Queue') as [[string, Json]];
    expect(queue.DeletionPolicy).toBe('Delete');
  });
});

describe('publish-events least privilege', () => {
  function statements(): { Action: string | string[]; Resource: unknown; Effect: string }[] {
    const fn = resource(logicalId(workerFunction(publisher.id).function));
    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    return resourcesOfType(s.workers, 'AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
  }
  const actions = (st: { Action: string | string[] }) => [st.Action].flat();

  it('may PutEvents, only to the project bus', () => {
    const put = statements().filter((st) => actions(st).some((a) => a.startsWith('events:')));
    expect(put).toHaveLength(1);
    expect(actions(put[0]!)).toEqual(['events:PutEvents']);
    expect(put[0]!.Resource).toEqual({ Ref: 'EventBusArn' });
    const stackId = s.stack.getLogicalId(s.stack.workersStack.nestedStackResource as never);
    const params = resourcesOfType(s.parent, 'AWS::CloudFormation::Stack').find(([id]) => id === stackId)![1].Properties.Parameters;
    const [[busId]] = resourcesOfType(s.parent, 'AWS::Events::EventBus') as [[string, Json]];
    expect(params.EventBusArn).toEqual({ 'Fn::GetAtt': [busId, 'Arn'] });
  });

  it('reads the table stream only (no table data), and sends only to its dead-letter queue', () => {
    const all = statements();
    const dynamo = all.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect(actions(dynamo[0]!).sort()).toEqual(
      ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'].sort(),
    );
    expect(dynamo[0]!.Resource).toEqual({ Ref: 'TableStreamArn' });
    const queueId = s.stack.workersStack.getLogicalId(workerFunction(publisher.id).deadLetterQueue.node.defaultChild as never);
    const sqs = all.filter((st) => actions(st).some((a) => a.startsWith('sqs:')));
    expect(sqs).toHaveLength(1);
    expect(actions(sqs[0]!)).toContain('sqs:SendMessage');
    expect(sqs[0]!.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    const other = all.flatMap(actions).filter((a) => !/^(dynamodb|events|sqs|logs):/.test(a));
    expect(other).toEqual([]);
    for (const st of all) expect(JSON.stringify(st.Resource)).not.toBe('"*"');
  });

  it('its role carries no managed policy', () => {
    for (const [, role] of resourcesOfType(s.workers, 'AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('workers stack size and cdk-nag', () => {
  it('stays far under 500 resources, and adds one resource to the parent', () => {
    expect(resourceCount(s.workers)).toBeLessThan(50);
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
