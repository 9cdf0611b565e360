/**
 * The local runtime's permission check (shared/local/iam-check.ts) against the real local
 * stand-ins: a function's SDK calls succeed exactly when its grants (the ones the CDK turns into
 * its role) would allow them in AWS.
 */
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { client as cognito } from '../../shared/adapters/cognito.js';
import { BUCKET, s3 } from '../../shared/adapters/s3.js';
import { config } from '../../shared/config.js';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { checkSharedClients, runAs } from '../../shared/local/iam-check.js';
import type { RouteGrants } from '../../shared/routes/types.js';

beforeAll(() => checkSharedClients());

const denied = { name: 'AccessDeniedException' };
const as = <T>(grants: RouteGrants, work: () => Promise<T>, counters: readonly string[] = []) =>
  runAs('probe', grants, counters, work);

const tenantKey = () => keys.tenantConfig(randomUUID());
const touch = (Key: Record<string, string>) =>
  db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key,
      UpdateExpression: 'SET probe = :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );

describe('the table', () => {
  it('read grants read; a write is refused before it reaches the table', async () => {
    const Key = tenantKey();
    await expect(
      as({ table: 'read' }, () => db.send(new GetCommand({ TableName: TABLE, Key }))),
    ).resolves.toBeDefined();
    await expect(as({ table: 'read' }, () => touch(Key))).rejects.toMatchObject(denied);
    expect((await db.send(new GetCommand({ TableName: TABLE, Key, ConsistentRead: true }))).Item).toBeUndefined();
    await expect(as({ table: 'write' }, () => touch(Key))).resolves.toBeDefined();
  });

  it('a route that counts its calls may update the rate counters, and only those', async () => {
    const counter = keys.rateWindow('tenant', randomUUID(), 0);
    await expect(as({ table: 'read' }, () => touch(counter), ['dynamodb:UpdateItem'])).resolves.toBeDefined();
    await expect(as({ table: 'read' }, () => touch(tenantKey()), ['dynamodb:UpdateItem'])).rejects.toMatchObject(
      denied,
    );
    // A public route without a limit counts nothing: no counter either.
    await expect(as({ table: 'read' }, () => touch(counter), [])).rejects.toMatchObject(denied);
    // A per-IP window is a PutItem of the caller's log: on a counter, not elsewhere.
    const put = (Key: Record<string, string>) =>
      db.send(new PutCommand({ TableName: TABLE, Item: { ...Key, calls: [] } }));
    const window = ['dynamodb:GetItem', 'dynamodb:PutItem'];
    await expect(as({}, () => put(keys.rateLog('acknowledge', randomUUID())), window)).resolves.toBeDefined();
    await expect(as({}, () => put(tenantKey()), window)).rejects.toMatchObject(denied);
  });

  it('a transaction is checked item by item, as IAM does', async () => {
    const put = { Put: { TableName: TABLE, Item: { ...tenantKey(), entity: 'PROBE' } } };
    const check = {
      ConditionCheck: { TableName: TABLE, Key: tenantKey(), ConditionExpression: 'attribute_not_exists(PK)' },
    };
    await expect(
      as({ table: 'read' }, () => db.send(new TransactWriteCommand({ TransactItems: [check] }))),
    ).resolves.toBeDefined();
    await expect(
      as({ table: 'read' }, () => db.send(new TransactWriteCommand({ TransactItems: [check, put] }))),
    ).rejects.toMatchObject(denied);
    await expect(
      as({ table: 'write' }, () => db.send(new TransactWriteCommand({ TransactItems: [check, put] }))),
    ).resolves.toBeDefined();
  });

  it('no grant, no call; outside a function nothing is checked', async () => {
    await expect(as({}, () => db.send(new GetCommand({ TableName: TABLE, Key: tenantKey() })))).rejects.toMatchObject(
      denied,
    );
    await expect(db.send(new GetCommand({ TableName: TABLE, Key: tenantKey() }))).resolves.toBeDefined();
  });
});

describe('the bucket and the user pool', () => {
  it('bucket read reads objects but writes none', async () => {
    const Key = `probe/${randomUUID()}.txt`;
    await expect(
      as({ bucket: 'read' }, () => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' }))),
    ).rejects.toMatchObject(denied);
    await as({ bucket: 'write' }, () => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' })));
    const got = await as({ bucket: 'read' }, () => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key })));
    expect(await got.Body!.transformToString()).toBe('x');
  });

  it('user pool actions must be named one by one', async () => {
    const call = () =>
      cognito.send(
        new AdminGetUserCommand({ UserPoolId: config.userPoolId, Username: `${randomUUID()}@probe.example` }),
      );
    await expect(as({ userPool: ['cognito-idp:InitiateAuth'] }, call)).rejects.toMatchObject(denied);
    // Allowed: it reaches cognito-local, which answers that there is no such user.
    await expect(as({ userPool: ['cognito-idp:AdminGetUser'] }, call)).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });
  });
});
