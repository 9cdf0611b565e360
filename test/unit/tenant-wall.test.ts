/**
 * The second wall's parts (docs/architecture.md, 27): which partitions a request names, which
 * credentials a call runs with, what the TenantData role's policy allows, and the STS adapter's
 * cache. The wall against the stand-ins: test/integration/tenant-wall.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StsAssumeRole } from '../../shared/adapters/sts-assume-role.js';
import { AssumedTenantCredentials, REFRESH_BEFORE_MS } from '../../shared/adapters/tenant-credentials.js';
import { bucketCallScope, tenantOfObjectKey } from '../../shared/adapters/object-keys.js';
import { chunksByOwner, isPlatformPartition, stringLike } from '../../shared/db/keys.js';
import * as keys from '../../shared/db/item-keys.js';
import { requestPartitions, tableCallScope } from '../../shared/db/request-keys.js';
import { tenantDataAllowsObjects, tenantDataAllowsTable, tenantSessionPolicy } from '../../shared/iam.js';
import {
  asEachTenant,
  chooseCredentialsPerCall,
  withTenantScope,
  withUndecidedTenant,
} from '../../shared/tenant-scope.js';
import { localSts } from '../support/local-sts.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

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

describe("a batch's keys in chunks of one owner", () => {
  it('keeps each tenant and the platform apart, in the order first seen, within the batch limit', () => {
    const pk = (tenant: string) => ({ PK: tenant === '' ? 'RATE#x' : `T#${tenant}#EVT`, tenant });
    const items = ['a', 'b', 'a', '', 'a', 'b', ''].map(pk);
    const chunks = chunksByOwner(items, (i) => i.PK, 2).map((c) => c.map((i) => i.tenant));
    expect(chunks).toEqual([['a', 'a'], ['a'], ['b', 'b'], ['', '']]);
    expect(chunksByOwner([], (i: { PK: string }) => i.PK, 25)).toEqual([]);
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
  it("acting on several tenants (a queue's, a sweep's), each call as the tenant its keys name: items and objects alike", () => {
    const made: string[] = [];
    const make = (tenantId: string) => {
      made.push(tenantId);
      return { ...scope, tenantId };
    };
    withUndecidedTenant(make, () =>
      asEachTenant(() => {
        expect(tableCallScope('GetCommand', { Key: keys.tenant(B) })?.tenantId).toBe(B);
        expect(tableCallScope('UpdateCommand', { Key: keys.rateLog('x', 'ip') })).toBeUndefined();
        for (const [key, tenant] of [
          [`tenants/${A}/files/x.kml`, A],
          [`telemetry/${B}/s/1.json`, B],
          [`lake/events/tenant_id=${A}/dt=2026-01-01/b.parquet`, A],
          [`lake-state/connectors/${B}/c.json`, B],
        ] as const) {
          expect(tenantOfObjectKey(key), key).toBe(tenant);
          expect(bucketCallScope('PutObjectCommand', { Key: key })?.tenantId, key).toBe(tenant);
        }
        expect(bucketCallScope('GetObjectCommand', { Key: 'feeds/rpki/vrps.txt.gz' })).toBeUndefined();
        // A key of no tenant's prefix names no tenant: the own role, which reaches feeds/ only.
        expect(tenantOfObjectKey('lake/events/x.parquet')).toBeUndefined();
        expect(bucketCallScope('GetObjectCommand', { Key: 'elsewhere/x' })).toBeUndefined();
      }),
    );
    expect(made).toEqual([B, A, B, A, B]);
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
  const sts = localSts();
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => sts.server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(sts.server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => sts.server.close(() => resolve())));
  beforeEach(() => {
    sts.seen.length = 0;
    sts.state.refuse = [];
  });
  const client = () =>
    new StsAssumeRole({
      region: 'eu-west-1',
      endpoint,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'function-role' },
    });
  const ROLE = 'arn:aws:iam::111122223333:role/td';

  it('AssumeRole is a signed form POST naming the role, the tag and the policy; its answer is the credentials', async () => {
    const source = new AssumedTenantCredentials(ROLE, client(), () => sts.state.now);
    const policy = tenantSessionPolicy({ table: 'read' });
    const got = await source.credentialsFor(A, policy);
    expect(got).toEqual({
      accessKeyId: `ASIAIOSFODNN7EXAMPL${sts.state.issued}`,
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY+EXAMPLEKEY',
      sessionToken: `FwoGZXIvYXdzEN//////////wEaDOjEXAMPLE${sts.state.issued}+tenant&token==`,
      expiration: new Date(sts.state.now + 3_600_000),
    });
    const [req] = sts.seen;
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/sts\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(req!.headers['x-amz-security-token']).toBe('function-role');
    expect(Object.fromEntries(req!.form)).toEqual({
      Action: 'AssumeRole',
      Version: '2011-06-15',
      RoleArn: ROLE,
      RoleSessionName: `tenant-${A}`,
      DurationSeconds: '3600',
      Policy: policy,
      'Tags.member.1.Key': 'tenant_id',
      'Tags.member.1.Value': A,
    });
  });

  it('once per tenant; first calls at once share one AssumeRole; again shortly before expiry', async () => {
    const source = new AssumedTenantCredentials(ROLE, client(), () => sts.state.now);
    const policy = tenantSessionPolicy({ table: 'read' });
    const first = await Promise.all([source.credentialsFor(A, policy), source.credentialsFor(A, policy)]);
    expect(first[0]).toBe(first[1]);
    expect(sts.seen).toHaveLength(1);

    await source.credentialsFor(B, policy);
    expect(sts.seen.map((r) => r.form.get('Tags.member.1.Value'))).toEqual([A, B]);
    sts.state.now += 3_600_000 - REFRESH_BEFORE_MS - 1;
    expect(await source.credentialsFor(A, policy)).toBe(first[0]);
    expect(sts.seen).toHaveLength(2);
    sts.state.now += 2;
    const again = await Promise.all([source.credentialsFor(A, policy), source.credentialsFor(A, policy)]);
    expect(sts.seen).toHaveLength(3);
    expect(again[0]).toBe(again[1]);
    expect(again[0].accessKeyId).not.toBe(first[0].accessKeyId);
  });

  it("STS's refusal is an error named by its Code, and is not kept: the next call tries again", async () => {
    const source = new AssumedTenantCredentials(ROLE, client(), () => sts.state.now);
    sts.state.refuse = [{ status: 403, code: 'AccessDenied', message: 'not authorized to perform sts:TagSession' }];
    const err = (await source.credentialsFor(A, '{}').catch((e: unknown) => e)) as Error & {
      $metadata: { httpStatusCode: number };
    };
    expect(err.name).toBe('AccessDenied');
    expect(err.message).toBe('not authorized to perform sts:TagSession');
    expect(err.$metadata.httpStatusCode).toBe(403);
    expect(sts.seen).toHaveLength(1);
    await expect(source.credentialsFor(A, '{}')).resolves.toMatchObject({ sessionToken: expect.any(String) });
    expect(sts.seen).toHaveLength(2);
  });

  it('throttling is tried again, as the SDK tries it; throttling that lasts is the Throttling error', async () => {
    const throttled = { status: 400, code: 'Throttling', message: 'Rate exceeded' };
    sts.state.refuse = [throttled];
    await expect(
      client().assumeRole({ roleArn: ROLE, roleSessionName: 's', durationSeconds: 900 }),
    ).resolves.toMatchObject({ accessKeyId: expect.stringMatching(/^ASIA/) });
    expect(sts.seen).toHaveLength(2);
    sts.state.refuse = [throttled, throttled, throttled];
    await expect(
      client().assumeRole({ roleArn: ROLE, roleSessionName: 's', durationSeconds: 900 }),
    ).rejects.toMatchObject({ name: 'Throttling', message: 'Rate exceeded' });
  });
});

describe('a real DynamoDB client signs with the credentials chosen for the call', () => {
  // The SDK resolves credentials when it signs: this shows the per-call choice reaches the
  // signature (the local stand-ins accept any key, so nothing else would notice if it did not).
  let server: Server;
  let endpoint = '';
  const signedBy: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      signedBy.push(/Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? 'unsigned');
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("the function's own key outside a scope and for platform partitions; the tenant's inside it", async () => {
    const base = new DynamoDBClient({
      region: 'eu-west-1',
      endpoint,
      credentials: { accessKeyId: 'OWNROLEKEY', secretAccessKey: 'own' },
      maxAttempts: 1,
    });
    chooseCredentialsPerCall(base, tableCallScope);
    const client = DynamoDBDocumentClient.from(base);
    const get = (key: Record<string, unknown>) => client.send(new GetCommand({ TableName: T, Key: key }));
    const scope = {
      tenantId: A,
      credentials: async () => ({ accessKeyId: 'TENANTAKEY', secretAccessKey: 'a', sessionToken: 'session-a' }),
    };
    signedBy.length = 0;
    await get(keys.tenant(A));
    await withTenantScope(scope, async () => {
      await get(keys.tenant(A));
      await get(keys.rateLog('x', 'ip'));
      await get(keys.tenant(B));
    });
    await get(keys.tenant(A));
    expect(signedBy).toEqual(['OWNROLEKEY', 'TENANTAKEY', 'OWNROLEKEY', 'TENANTAKEY', 'OWNROLEKEY']);
  });
});
