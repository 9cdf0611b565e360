/**
 * The second wall (docs/architecture.md, 27): a route's data calls run with its tenant's
 * credentials, whose policy allows only that tenant's partitions and objects. Here a real route's
 * domain functions run as the route's function in tenant A's scope (what the handler chain sets),
 * and a bug is forced through a test-only seam: they are handed tenant B's id. The local IAM check
 * refuses the calls as IAM would, before they reach the table or the bucket; A's own keys pass.
 * The workers' batches likewise: a stream batch's records each as its tenant, a queue's calls each
 * as the tenant its keys name.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchGetCommand, GetCommand, QueryCommand, TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUCKET, s3 } from '../../shared/adapters/s3.js';
import { tenantScopeOf, workerScopeOf } from '../../shared/adapters/tenant-credentials.js';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { tenantPk } from '../../shared/db/keys.js';
import { readItems } from '../../shared/db/read-batch.js';
import { createEnvironment, findEnvironment } from '../../shared/domain/sites/environments.js';
import { counterActions, tenantSessionPolicy } from '../../shared/iam.js';
import { checkSharedClients, runAsRoute, runAsWorker } from '../../shared/local/iam-check.js';
import { environmentsCreateRoute, environmentsGetRoute } from '../../shared/routes/environments.js';
import { eventsBatchRoute } from '../../shared/routes/events.js';
import { tenantsGetRoute, tenantsListRoute } from '../../shared/routes/tenants.js';
import type { RouteDef } from '../../shared/routes/types.js';
import { asTenant, enterEachTenant, withTenantScope, withUndecidedTenant } from '../../shared/tenant-scope.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { queueBatch, streamBatch, type StreamItem } from '../../shared/worker-handler.js';
import { workerById, type WorkerDef } from '../../shared/workers.js';
import { registerTenant, type RegisteredTenant } from '../support/api.js';
import { actorOf } from '../support/seed.js';

const denied = { name: 'AccessDeniedException' };

/** `work` as `route`'s function acting in `tenant`, as the handler chain runs it. */
const asRouteIn = <T>(route: RouteDef, tenant: RegisteredTenant, work: () => Promise<T>) =>
  withTenantScope(tenantScopeOf(tenant.tenantId, tenantSessionPolicy(route.grants)), () =>
    runAsRoute(route, counterActions(route), work),
  );

let a: RegisteredTenant;
let b: RegisteredTenant;
beforeAll(async () => {
  await checkSharedClients();
  [a, b] = await Promise.all([registerTenant('WallA'), registerTenant('WallB')]);
});

describe("a route acting in tenant A, handed tenant B's id", () => {
  it("reads A's environment, and is refused B's by the table's policy, not by the code", async () => {
    const input = { name: 'North yard', type: 'site' as const };
    const own = await createEnvironment(actorOf(a), systemTenant(a.tenantId), input);
    const other = await createEnvironment(actorOf(b), systemTenant(b.tenantId), input);

    // A's route reads A's and is refused B's; the other way round, B's reads B's and is refused A's.
    for (const [me, mine, them, theirs] of [
      [a, own, b, other],
      [b, other, a, own],
    ] as const) {
      await expect(
        asRouteIn(environmentsGetRoute, me, () => findEnvironment(systemTenant(me.tenantId), mine.environment_id)),
      ).resolves.toMatchObject({ environment_id: mine.environment_id });
      await expect(
        asRouteIn(environmentsGetRoute, me, () => findEnvironment(systemTenant(them.tenantId), theirs.environment_id)),
      ).rejects.toMatchObject(denied);
    }
  });

  it("writes in A, and a write in B is refused whole: nothing of it reaches B's partition", async () => {
    const input = { name: 'Wrong tenant', type: 'site' as const };
    const made = await asRouteIn(environmentsCreateRoute, a, () =>
      createEnvironment(actorOf(a), systemTenant(a.tenantId), input),
    );
    expect(made.tenant_id).toBe(a.tenantId);
    await expect(
      asRouteIn(environmentsCreateRoute, a, () => createEnvironment(actorOf(a), systemTenant(b.tenantId), input)),
    ).rejects.toMatchObject(denied);
    const inB = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :env)',
        ExpressionAttributeValues: { ':pk': tenantPk(b.tenantId), ':env': 'ENV#' },
        ConsistentRead: true,
      }),
    );
    expect((inB.Items ?? []).filter((item) => item.name === input.name)).toEqual([]);
  });

  it("a call naming only platform partitions runs with the function's own role, inside the scope too", async () => {
    await expect(
      asRouteIn(environmentsGetRoute, a, () =>
        db.send(new GetCommand({ TableName: TABLE, Key: keys.registration('nobody') })),
      ),
    ).resolves.toBeDefined();
    // Mixed with a tenant's item it is one call, one set of credentials: the tenant's, which do not reach it.
    await expect(
      asRouteIn(environmentsGetRoute, a, () =>
        db.send(
          new TransactGetCommand({
            TransactItems: [
              { Get: { TableName: TABLE, Key: keys.tenant(a.tenantId) } },
              { Get: { TableName: TABLE, Key: keys.registration('nobody') } },
            ],
          }),
        ),
      ),
    ).rejects.toMatchObject(denied);
  });
});

describe("a route's objects", () => {
  const grants = { bucket: 'write' as const };
  const route = { ...environmentsGetRoute, id: 'probe-objects', grants } as unknown as RouteDef;

  it("puts and reads under A's prefix; B's prefix is refused", async () => {
    const own = `tenants/${a.tenantId}/probe/wall.txt`;
    const other = `tenants/${b.tenantId}/probe/wall.txt`;
    await asRouteIn(route, a, () => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: own, Body: 'a' })));
    await expect(
      asRouteIn(route, a, () => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own }))),
    ).resolves.toBeDefined();
    await expect(
      asRouteIn(route, a, () => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: other, Body: 'a' }))),
    ).rejects.toMatchObject(denied);
  });
});

describe("a tenant route's own role", () => {
  it("is refused a tenant's items and objects: outside a tenant scope, the route reaches the platform's only", async () => {
    const made = await createEnvironment(actorOf(a), systemTenant(a.tenantId), { name: 'Own role', type: 'site' });
    const asRoute = <T>(work: () => Promise<T>) =>
      runAsRoute(environmentsGetRoute, counterActions(environmentsGetRoute), work);
    await expect(asRoute(() => findEnvironment(systemTenant(a.tenantId), made.environment_id))).rejects.toMatchObject(
      denied,
    );
    await expect(
      asRoute(() => db.send(new GetCommand({ TableName: TABLE, Key: keys.registration('nobody') }))),
    ).resolves.toBeDefined();
    const objects = { ...environmentsGetRoute, id: 'probe-own-objects', grants: { bucket: 'read' as const } };
    await expect(
      runAsRoute(objects as unknown as RouteDef, [], () =>
        s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `tenants/${a.tenantId}/probe/wall.txt` })),
      ),
    ).rejects.toMatchObject(denied);
  });

  it("a SUPER_ADMIN's batch runs each call as the tenant it names; a call naming two tenants is refused", async () => {
    const [one, two] = [keys.tenant(a.tenantId), keys.tenant(b.tenantId)];
    const asAdminBatch = <T>(work: () => Promise<T>) =>
      withUndecidedTenant(
        (tenantId) => tenantScopeOf(tenantId, tenantSessionPolicy(eventsBatchRoute.grants)),
        () => {
          enterEachTenant();
          return runAsRoute(eventsBatchRoute, counterActions(eventsBatchRoute), work);
        },
      );
    await expect(
      asAdminBatch(() => db.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: [one, two] } } }))),
    ).rejects.toMatchObject(denied);
    // The store's batch read splits its keys by tenant: one call each, each as its tenant.
    const read = await asAdminBatch(() => readItems([one, two]));
    expect(read.get(one)).toMatchObject({ tenant_id: a.tenantId });
    expect(read.get(two)).toMatchObject({ tenant_id: b.tenantId });
  });

  it("a route with no tenant (the tenant directory's list) is a platform function: its own role is not fenced", async () => {
    await expect(
      runAsRoute(tenantsListRoute, counterActions(tenantsListRoute), () =>
        db.send(new GetCommand({ TableName: TABLE, Key: keys.tenant(a.tenantId) })),
      ),
    ).resolves.toMatchObject({ Item: { tenant_id: a.tenantId } });
  });

  it('a route that finds its tenant (a SUPER_ADMIN naming one in the path) is fenced: it reads it as that tenant', async () => {
    const asGet = <T>(work: () => Promise<T>) => runAsRoute(tenantsGetRoute, counterActions(tenantsGetRoute), work);
    const read = () => db.send(new GetCommand({ TableName: TABLE, Key: keys.tenant(a.tenantId) }));
    await expect(asGet(read)).rejects.toMatchObject(denied);
    await expect(
      asGet(() =>
        withUndecidedTenant(
          (tenantId) => tenantScopeOf(tenantId, tenantSessionPolicy(tenantsGetRoute.grants)),
          () => asTenant(a.tenantId, read),
        ),
      ),
    ).resolves.toMatchObject({ Item: { tenant_id: a.tenantId } });
  });
});

/**
 * A worker's batch (docs/architecture.md, 27): each record read as its tenant. The work is the
 * test's seam: each record names the environment its work reads, which a bug could make another
 * tenant's.
 */
describe("a worker's batch of two tenants' records", () => {
  const streamWorker = workerById('count-analytics');
  const queueWorker = workerById('webhook-dispatch');
  const asWorker = <T>(worker: WorkerDef, work: () => Promise<T>) =>
    withUndecidedTenant(workerScopeOf, () => runAsWorker(worker, work));

  let own: { a: string; b: string };
  beforeAll(async () => {
    const input = { name: 'Worker yard', type: 'site' as const };
    const [inA, inB] = await Promise.all([
      createEnvironment(actorOf(a), systemTenant(a.tenantId), input),
      createEnvironment(actorOf(b), systemTenant(b.tenantId), input),
    ]);
    own = { a: inA.environment_id, b: inB.environment_id };
  });

  /** A stream record of an item of `tenant` whose work reads `reads`' environment. */
  const record = (seq: string, tenant: RegisteredTenant, reads: RegisteredTenant): DynamoDBRecord => ({
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: seq,
      NewImage: marshall({
        PK: tenantPk(tenant.tenantId),
        SK: `PROBE#${seq}`,
        entity: 'EVENT',
        reads: reads.tenantId,
      }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  });
  const reasons = new Map<string, unknown>();
  const readEach = async (items: readonly StreamItem[]) => {
    const failed = new Map<string, unknown>();
    for (const { id, item } of items) {
      const reads = String(item.reads);
      try {
        await findEnvironment(systemTenant(reads), reads === a.tenantId ? own.a : own.b);
      } catch (err) {
        failed.set(id, err);
        reasons.set(id, err);
      }
    }
    return failed;
  };

  it("runs each tenant's records as that tenant: a record of A whose work reads B's item is refused", async () => {
    const records = [record('1', a, a), record('2', b, b), record('3', a, b), record('4', b, b)];
    const answer = await asWorker(streamWorker, () => streamBatch(records, readEach));
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: '3' }]);
    expect(reasons.get('3')).toMatchObject(denied);
  });

  it("and its own role reaches no tenant's items: a read outside the records' scope is refused", async () => {
    await expect(asWorker(streamWorker, () => findEnvironment(systemTenant(a.tenantId), own.a))).rejects.toMatchObject(
      denied,
    );
  });

  it("a queue worker's calls run each as the tenant their keys name; one call naming two tenants is refused", async () => {
    const message = (id: string, body: string): SQSRecord =>
      ({ messageId: id, body, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;
    const event = {
      Records: [message('a', a.tenantId), message('b', b.tenantId), message('both', 'both')],
    };
    const answer = await asWorker(queueWorker, () =>
      queueBatch(event, async (r) => {
        if (r.body !== 'both') return findEnvironment(systemTenant(r.body), r.body === a.tenantId ? own.a : own.b);
        return db.send(
          new BatchGetCommand({
            RequestItems: { [TABLE]: { Keys: [keys.tenant(a.tenantId), keys.tenant(b.tenantId)] } },
          }),
        );
      }),
    );
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'both' }]);
  });
});
