/**
 * The second wall's parts (docs/architecture.md, 27): which partitions a request names, which
 * credentials a call runs with, what the TenantData role's policy allows, and the STS adapter's
 * cache. The wall against the stand-ins: test/integration/tenant-wall.test.ts.
 */
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { AssumedTenantCredentials, REFRESH_BEFORE_MS } from '../../shared/adapters/tenant-credentials.js';
import { bucketCallScope } from '../../shared/adapters/object-keys.js';
import { isPlatformPartition, stringLike } from '../../shared/db/keys.js';
import * as keys from '../../shared/db/item-keys.js';
import { requestPartitions, tableCallScope } from '../../shared/db/request-keys.js';
import { tenantDataAllowsObjects, tenantDataAllowsTable, tenantSessionPolicy } from '../../shared/iam.js';
import { withTenantScope } from '../../shared/tenant-scope.js';

const A = '0190a000-0000-7000-8000-00000000000a';
const B = '0190b000-0000-7000-8000-00000000000b';
const T = 'gatehouse-test';

describe('the partitions a request names', () => {
  const a = keys.incident(A, 'i1');
  const b = keys.incident(B, 'i2');
  it('one item: Key or Item, plain or marshalled', () => {
    expect(requestPartitions('GetCommand', { TableName: T, Key: a })).toEqual([a.PK]);
    expect(requestPartitions('PutItemCommand', { TableName: T, Item: { PK: { S: a.PK }, SK: { S: 'x' } } })).toEqual([
      a.PK,
    ]);
    expect(requestPartitions('UpdateCommand', { Key: b })).toEqual([b.PK]);
    expect(requestPartitions('DeleteCommand', { Key: a })).toEqual([a.PK]);
  });
  it('every item of a transaction and of a batch', () => {
    expect(
      requestPartitions('TransactWriteCommand', {
        TransactItems: [
          { Put: { Item: { ...a, x: 1 } } },
          { Update: { Key: b } },
          { ConditionCheck: { Key: keys.tenant(A) } },
          { Delete: { Key: keys.slaTimer('t', A, 'i1') } },
        ],
      }),
    ).toEqual([a.PK, b.PK, `T#${A}`, 'SLATIMERS']);
    expect(requestPartitions('TransactGetCommand', { TransactItems: [{ Get: { Key: a } }] })).toEqual([a.PK]);
    expect(requestPartitions('BatchGetCommand', { RequestItems: { [T]: { Keys: [a, b] } } })).toEqual([a.PK, b.PK]);
    expect(
      requestPartitions('BatchWriteCommand', {
        RequestItems: { [T]: [{ PutRequest: { Item: a } }, { DeleteRequest: { Key: b } }] },
      }),
    ).toEqual([a.PK, b.PK]);
  });
  it("a Query's partition value, the index's own on an index (names and aliases alike)", () => {
    expect(
      requestPartitions('QueryCommand', {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': a.PK, ':sk': 'X' },
      }),
    ).toEqual([a.PK]);
    expect(
      requestPartitions('QueryCommand', {
        IndexName: 'GSI1',
        KeyConditionExpression: '#pk = :v AND GSI1SK > :s',
        ExpressionAttributeNames: { '#pk': 'GSI1PK' },
        ExpressionAttributeValues: { ':v': `T#${B}#INCIDENTS`, ':s': '0' },
      }),
    ).toEqual([`T#${B}#INCIDENTS`]);
    // GSI5's partition key is the table's PK.
    expect(
      requestPartitions('QueryCommand', {
        IndexName: 'GSI5',
        KeyConditionExpression: 'PK = :pk AND GSI5SK > :b',
        ExpressionAttributeValues: { ':pk': `T#${A}#EVENT`, ':b': '0' },
      }),
    ).toEqual([`T#${A}#EVENT`]);
    // A key condition it cannot read names '' (no policy allows it); a Scan names no partition it can tell.
    expect(requestPartitions('QueryCommand', { KeyConditionExpression: 'SK = :x' })).toEqual(['']);
    expect(requestPartitions('ScanCommand', {})).toBeNull();
    expect(requestPartitions('DescribeTableCommand', { TableName: T })).toEqual([]);
  });
});

describe('which credentials a call runs with', () => {
  const scope = { tenantId: A, credentials: async () => ({ accessKeyId: 'a', secretAccessKey: 'a' }) };
  it('outside a scope, the own role; inside, the tenant for anything but platform partitions only', () => {
    expect(tableCallScope('GetCommand', { Key: keys.tenant(A) })).toBeUndefined();
    withTenantScope(scope, () => {
      expect(tableCallScope('GetCommand', { Key: keys.tenant(B) })).toBe(scope);
      expect(tableCallScope('UpdateCommand', { Key: keys.rateLog('x', 'ip') })).toBeUndefined();
      expect(tableCallScope('QueryCommand', queryOn('GSI1', 'GSI1PK', 'TENANTS'))).toBeUndefined();
      expect(tableCallScope('QueryCommand', queryOn('GSI4', 'GSI4PK', 'EVENTMINUTES#3600'))).toBeUndefined();
      expect(tableCallScope('DescribeTableCommand', {})).toBeUndefined();
      // A transaction of a tenant's items and a timer: the tenant's.
      expect(
        tableCallScope('TransactWriteCommand', {
          TransactItems: [{ Put: { Item: keys.incident(A, 'i') } }, { Put: { Item: keys.slaTimer('t', A, 'i') } }],
        }),
      ).toBe(scope);
      expect(tableCallScope('ScanCommand', {})).toBe(scope);
      expect(bucketCallScope('PutObjectCommand', { Key: `tenants/${A}/x` })).toBe(scope);
      expect(bucketCallScope('GetObjectCommand', { Key: 'feeds/rpki/vrps.txt.gz' })).toBeUndefined();
      expect(bucketCallScope('HeadBucketCommand', { Bucket: 'b' })).toBeUndefined();
    });
  });
  it('the platform partitions', () => {
    for (const pk of ['RATE#tenant#x', 'REGISTRATION#h', 'PUBLICKEY#h', 'TENANTS', 'SLATIMERS', 'WFTIMERS', 'FEED#x'])
      expect(isPlatformPartition(pk), pk).toBe(true);
    for (const pk of [`T#${A}`, `T#${A}#EVENT`, 'TENANTSX', 'SLATIMERS#x', ''])
      expect(isPlatformPartition(pk), pk).toBe(false);
    expect(stringLike('a*c?', 'abbbcd')).toBe(true);
    expect(stringLike('a.c', 'abc')).toBe(false);
  });
});

const queryOn = (index: string, attribute: string, value: string) => ({
  IndexName: index,
  KeyConditionExpression: `${attribute} = :pk`,
  ExpressionAttributeValues: { ':pk': value },
});

describe("the TenantData role's policy, evaluated for a tenant", () => {
  it('allows the tenant partitions and the timers its transactions move; nothing of another tenant', () => {
    expect(tenantDataAllowsTable(A, 'dynamodb:GetItem', [`T#${A}`])).toBe(true);
    expect(tenantDataAllowsTable(A, 'dynamodb:PutItem', [`T#${A}#INC#1`, 'SLATIMERS', 'WFTIMERS', 'PUBLICKEY#h'])).toBe(
      true,
    );
    expect(tenantDataAllowsTable(A, 'dynamodb:GetItem', [`T#${B}`])).toBe(false);
    expect(tenantDataAllowsTable(A, 'dynamodb:Query', [`T#${A}`, `T#${B}#X`])).toBe(false);
    // A prefix of the id is not the tenant: `T#<A>x` is another partition.
    expect(tenantDataAllowsTable(A, 'dynamodb:GetItem', [`T#${A}x`])).toBe(false);
    expect(tenantDataAllowsTable(A, 'dynamodb:UpdateItem', ['RATE#tenant#x'])).toBe(false);
    expect(tenantDataAllowsTable(A, 'dynamodb:Scan', [])).toBe(false);
    expect(tenantDataAllowsTable(A, 'dynamodb:GetItem', null)).toBe(false);
    expect(tenantDataAllowsTable(A, 'dynamodb:DescribeTable', [])).toBe(false);
  });
  it("allows the tenant's objects only", () => {
    expect(tenantDataAllowsObjects(A, 's3:PutObject', [`tenants/${A}/audio/x.mp3`])).toBe(true);
    expect(tenantDataAllowsObjects(A, 's3:GetObject', [`telemetry/${A}/s/x.gz`])).toBe(true);
    expect(tenantDataAllowsObjects(A, 's3:PutObject', [`lake/events/tenant_id=${A}/dt=1/x.parquet`])).toBe(true);
    expect(tenantDataAllowsObjects(A, 's3:ListBucket', [`tenants/${A}/environments/e/`])).toBe(true);
    expect(tenantDataAllowsObjects(A, 's3:GetObject', [`tenants/${B}/audio/x.mp3`])).toBe(false);
    expect(tenantDataAllowsObjects(A, 's3:DeleteObject', [`tenants/${A}/x`, `tenants/${B}/x`])).toBe(false);
    expect(tenantDataAllowsObjects(A, 's3:ListBucket', [`tenants/`])).toBe(false);
  });
  it("a route's session is never more than its grants", () => {
    const read = JSON.parse(tenantSessionPolicy({ table: 'read' })) as { Statement: { Action: string[] }[] };
    expect(read.Statement[0]!.Action).not.toContain('dynamodb:PutItem');
    expect(read.Statement[0]!.Action).toContain('dynamodb:Query');
  });
});

describe('the TenantData role assumed through STS', () => {
  const expiring = (ms: number) => ({
    Credentials: { AccessKeyId: 'AK', SecretAccessKey: 'S', SessionToken: 'T', Expiration: new Date(ms) },
  });

  it('once per tenant, tagged with it; first calls at once share one AssumeRole; again shortly before expiry', async () => {
    const sts = mockClient(STSClient);
    let now = 1_000_000;
    sts.on(AssumeRoleCommand).callsFake(async () => expiring(now + 3_600_000));
    const source = new AssumedTenantCredentials('arn:aws:iam::1:role/td', new STSClient({}), () => now);
    const policy = tenantSessionPolicy({ table: 'read' });
    const first = await Promise.all([source.credentialsFor(A, policy), source.credentialsFor(A, policy)]);
    expect(first[0]).toBe(first[1]);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(1);
    const input = sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input;
    expect(input.Tags).toEqual([{ Key: 'tenant_id', Value: A }]);
    expect(input.RoleArn).toBe('arn:aws:iam::1:role/td');
    expect(input.Policy).toBe(policy);

    await source.credentialsFor(B, policy);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
    now += 3_600_000 - REFRESH_BEFORE_MS - 1;
    await source.credentialsFor(A, policy);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
    now += 2;
    await Promise.all([source.credentialsFor(A, policy), source.credentialsFor(A, policy)]);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(3);
    sts.restore();
  });

  it('a failed AssumeRole is not kept: the next call tries again', async () => {
    const sts = mockClient(STSClient);
    sts
      .on(AssumeRoleCommand)
      .rejectsOnce(new Error('Throttling'))
      .resolves(expiring(Date.now() + 3_600_000));
    const source = new AssumedTenantCredentials('arn:aws:iam::1:role/td', new STSClient({}));
    await expect(source.credentialsFor(A, '{}')).rejects.toThrow('Throttling');
    await expect(source.credentialsFor(A, '{}')).resolves.toMatchObject({ accessKeyId: 'AK' });
    sts.restore();
  });
});
