/**
 * What the tenant wall costs (issue 38; docs/architecture.md, 27, "What it costs"): a script that
 * prints figures, not a test.
 *
 *   npm run bench:tenant-wall
 *
 * 1. Warm: the same GetItem and Query calls of the real table client (shared/db/client.ts) against
 *    DynamoDB Local, inside a tenant scope (credentials chosen per call, the cache answering) and
 *    outside one, in alternating rounds; and the choice alone (tableCallScope and the cache hit),
 *    timed in a loop without the network.
 * 2. A tenant's first call in a container: one AssumeRole through the real StsAssumeRole against a
 *    local STS (test/support/local-sts.ts), and a bare POST of the same size to the same server.
 * 3. AssumeRole calls per 1,000 requests and their peak rate, for a few fleets
 *    (bin/tenant-wall-traffic.ts drives the real AssumedTenantCredentials on a simulated clock).
 *
 * Options (env): BENCH_CALLS (calls per round, default 200), BENCH_ROUNDS (default 10),
 * BENCH_STS (AssumeRoles timed, default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const STS_CALLS = Number(process.env.BENCH_STS ?? 300);
/** docs/benchmarks.md: GET one environment makes 3 table calls, POST one event 4. */
const ROUTE_CALLS = [3, 4];
/** STS's default request quota (IAM User Guide, "IAM and AWS STS quotas", STS request quotas). */
const STS_QUOTA_PER_SECOND = 600;

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-wall-'));
const { startDynamoDbLocal } = await import('../shared/local/dynamodb-local.js');
const dynamodb = await startDynamoDbLocal({ logFile: join(dir, 'dynamodb-local.log') });
// The configuration the table client reads; nothing else of the stack is needed (and the local
// IAM check, which would evaluate the policy on every tenant call, is not installed: AWS does that).
Object.assign(process.env, {
  TABLE_NAME: 'gatehouse-bench-wall',
  BUCKET_NAME: 'bench',
  EVENT_BUS_NAME: 'bench',
  USER_POOL_ID: 'us-east-1_bench',
  USER_POOL_CLIENT_ID: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'FUNCTIONROLE',
  AWS_SECRET_ACCESS_KEY: 'own',
  DYNAMODB_ENDPOINT: dynamodb.endpoint,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
});

const ms = (x: number) => x.toFixed(3).padStart(7);
const us = (x: number) => (x * 1000).toFixed(1).padStart(6);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;

try {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { GetCommand, PutCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ensureTable } = await import('../shared/local/provision.js');
  const { db, TABLE } = await import('../shared/db/client.js');
  const keys = await import('../shared/db/item-keys.js');
  const { tableCallScope } = await import('../shared/db/request-keys.js');
  const { AssumedTenantCredentials, tenantScopeOf, useTenantCredentials } =
    await import('../shared/adapters/tenant-credentials.js');
  const { StsAssumeRole } = await import('../shared/adapters/sts-assume-role.js');
  const { tenantSessionPolicy } = await import('../shared/iam.js');
  const { withTenantScope } = await import('../shared/tenant-scope.js');
  const { localSts } = await import('../test/support/local-sts.js');
  const { simulateFleet } = await import('./tenant-wall-traffic.js');

  const admin = new DynamoDBClient({ region: 'us-east-1', endpoint: dynamodb.endpoint });
  await ensureTable(admin, TABLE);
  admin.destroy();

  // ---- 1. warm calls, inside a tenant scope and outside one ----
  const tenant = '0190a000-0000-7000-8000-0000000000aa';
  const incident = keys.incident(tenant, '0190a001-0000-7000-8000-000000000001');
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...incident, title: 'Fence cut at the north gate' } }));
  for (let i = 0; i < 20; i++)
    await db.send(
      new PutCommand({ TableName: TABLE, Item: { PK: incident.PK, SK: `NOTE#${i}`, note: 'Patrol sent' } }),
    );
  const get = { TableName: TABLE, Key: incident };
  const query = {
    TableName: TABLE,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :n)',
    ExpressionAttributeValues: { ':pk': incident.PK, ':n': 'NOTE#' },
    Limit: 10,
  };
  // The TenantData role as in AWS, its STS answering at once: every call below is a cache hit.
  const fakeSts = {
    assumeRole: async () => ({
      accessKeyId: 'ASIATENANT',
      secretAccessKey: 'tenant',
      sessionToken: 'tenant-session',
      expiration: new Date(Date.now() + 3_600_000),
    }),
  };
  useTenantCredentials(new AssumedTenantCredentials('arn:aws:iam::111122223333:role/td', fakeSts).credentialsFor);
  const scope = tenantScopeOf(tenant, tenantSessionPolicy({ table: 'read' }));
  const inScope = <T>(work: () => Promise<T>) => withTenantScope(scope, work);
  const outside = <T>(work: () => Promise<T>) => work();

  const ops = {
    GetItem: () => db.send(new GetCommand(get)),
    Query: () => db.send(new QueryCommand(query)),
  };
  const times: Record<string, { in: number[]; out: number[] }> = {
    GetItem: { in: [], out: [] },
    Query: { in: [], out: [] },
  };
  const round = async (run: typeof inScope, into: 'in' | 'out', keep: boolean) => {
    for (const [name, op] of Object.entries(ops))
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await run(op);
        if (keep) times[name]![into].push(performance.now() - t);
      }
  };
  // DynamoDB Local (a JVM) speeds up as it warms: a warm-up of each, then rounds taken in turn.
  await round(outside, 'out', false);
  await round(inScope, 'in', false);
  for (let r = 0; r < ROUNDS; r++) {
    await round(r % 2 ? inScope : outside, r % 2 ? 'in' : 'out', true);
    await round(r % 2 ? outside : inScope, r % 2 ? 'out' : 'in', true);
  }

  // The SDK's whole path without a network: a client made as shared/db/client.ts makes it, whose
  // handler answers at once (an item-less GetItem), so DynamoDB Local's noise is out of the figure.
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const { chooseCredentialsPerCall } = await import('../shared/tenant-scope.js');
  const { Readable } = await import('node:stream');
  const stubbed = new DynamoDBClient({
    region: 'us-east-1',
    requestHandler: {
      handle: async () => ({ response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from('{}')]) } }),
    },
  });
  stubbed.middlewareStack.remove('loggerMiddleware');
  chooseCredentialsPerCall(stubbed, tableCallScope);
  const noNetwork = DynamoDBDocumentClient.from(stubbed);
  const sdkPath = async (n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) await noNetwork.send(new GetCommand(get));
    return (performance.now() - t) / n;
  };
  await sdkPath(5_000);
  await inScope(() => sdkPath(5_000));
  const sdk = { in: [] as number[], out: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) sdk.out.push(await sdkPath(2_000));
    sdk.in.push(await inScope(() => sdkPath(2_000)));
    if (!(r % 2)) sdk.out.push(await sdkPath(2_000));
  }

  // The choice alone: what a call inside a scope does that one outside does not.
  const choice = async (n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) await tableCallScope('GetCommand', get)?.credentials();
    return (performance.now() - t) / n;
  };
  await choice(20_000);
  const chosenOutside = await choice(100_000);
  const chosenInside = await inScope(() => choice(100_000));

  console.log(`1. Warm: the real table client against DynamoDB Local, ${ROUNDS} alternating rounds of ${CALLS} calls`);
  console.log('   (ms per call; "in": a tenant scope, credentials chosen per call from the cache; "out": no scope)');
  console.log('   call      in median  out median  in p95  out p95  median diff');
  for (const [name, t] of Object.entries(times)) {
    const diff = quantile(t.in, 0.5) - quantile(t.out, 0.5);
    console.log(
      `   ${name.padEnd(8)}  ${ms(quantile(t.in, 0.5))}    ${ms(quantile(t.out, 0.5))}  ${ms(quantile(t.in, 0.95))}  ${ms(quantile(t.out, 0.95))}  ${ms(diff)}`,
    );
  }
  console.log(
    `   the SDK's whole path, the network stubbed (${ROUNDS} rounds of 2,000 GetItem; median round, [fastest, slowest]): ` +
      `in ${ms(quantile(sdk.in, 0.5))} [${Math.min(...sdk.in).toFixed(3)}, ${Math.max(...sdk.in).toFixed(3)}], ` +
      `out ${ms(quantile(sdk.out, 0.5))} [${Math.min(...sdk.out).toFixed(3)}, ${Math.max(...sdk.out).toFixed(3)}] ms`,
  );
  const added = chosenInside - chosenOutside;
  console.log(
    `   the choice alone (tableCallScope + the cache hit), no network: ${us(chosenInside)} µs per call in a scope, ${us(chosenOutside)} µs outside; added ${us(added)} µs`,
  );
  for (const n of ROUTE_CALLS) console.log(`   a route of ${n} table calls: ${us(added * n)} µs added per request`);

  // ---- 2. a tenant's first call in a container: one AssumeRole ----
  const sts = localSts();
  await new Promise<void>((resolve) => sts.server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(sts.server.address() as AddressInfo).port}/`;
  try {
    const client = new StsAssumeRole({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'FUNCTIONROLE', secretAccessKey: 'own', sessionToken: 'function-role' },
    });
    const input = (i: number) => ({
      roleArn: 'arn:aws:iam::111122223333:role/td',
      roleSessionName: `tenant-0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      durationSeconds: 3600,
      tags: { tenant_id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}` },
      policy: tenantSessionPolicy({ table: 'write', bucket: 'write' }),
    });
    const timed = async (work: () => Promise<unknown>) => {
      const t = performance.now();
      await work();
      return performance.now() - t;
    };
    const first = await timed(() => client.assumeRole(input(0)));
    const body = new URLSearchParams({ Action: 'AssumeRole', Version: '2011-06-15', ...input(0) } as never).toString();
    const bare = () => fetch(endpoint, { method: 'POST', body }).then((r) => r.text());
    const assumed: number[] = [];
    const posts: number[] = [];
    for (let i = 1; i <= STS_CALLS; i++) {
      assumed.push(await timed(() => client.assumeRole(input(i))));
      posts.push(await timed(bare));
    }
    const inProcess = quantile(assumed, 0.5) - quantile(posts, 0.5);
    console.log(
      `\n2. A tenant's first call in a container: AssumeRole through StsAssumeRole to a local STS (node:http)`,
    );
    console.log(`   the process's first AssumeRole (connection, signer): ${ms(first)} ms`);
    console.log(
      `   AssumeRole, median of ${STS_CALLS}: ${ms(quantile(assumed, 0.5))} ms (p95 ${ms(quantile(assumed, 0.95))}); a bare POST of the same form to the same server: ${ms(quantile(posts, 0.5))} ms`,
    );
    console.log(`   in process (signing, form, XML parse): about ${ms(inProcess)} ms per AssumeRole`);
    console.log(
      "   Real STS adds its own round trip to the regional endpoint (TLS, AWS's work): not measured here (no published figure found).",
    );
  } finally {
    await new Promise<void>((resolve) => sts.server.close(() => resolve()));
  }

  // ---- 3. AssumeRole calls for a realistic mix ----
  const steady = {
    tenants: 200,
    zipf: 1,
    ratePerSecond: 20,
    minutes: 8 * 60,
    lifetimeMinutes: 120,
    warmupMinutes: 120,
  };
  const scenarios = [
    { label: 'steady, 200 tenants, 10 containers, 20 req/s', model: { ...steady, containers: 10 } },
    { label: 'steady, 200 tenants, 50 containers, 20 req/s', model: { ...steady, containers: 50 } },
    { label: 'steady, 50 containers living 15 min', model: { ...steady, containers: 50, lifetimeMinutes: 15 } },
    { label: 'many tenants: 2,000, 50 containers', model: { ...steady, tenants: 2000, containers: 50 } },
    {
      label: 'cold fleet: 50 containers at once, 200 req/s',
      model: { ...steady, containers: 50, ratePerSecond: 200, minutes: 10, coldFleet: true, warmupMinutes: 0 },
    },
  ];
  console.log('\n3. AssumeRole calls: the real AssumedTenantCredentials per container, on a simulated clock');
  console.log(
    '   (Zipf s=1 tenant shares; a request lands on any container; containers replaced after 2 h unless said,\n' +
      '   an assumed lifetime; steady fleets: 6 h counted after 2 h of warm-up)',
  );
  console.log('   scenario                                        requests  AssumeRoles  per 1,000  peak/s  peak/min');
  for (const { label, model } of scenarios) {
    const r = await simulateFleet(model);
    console.log(
      `   ${label.padEnd(46)} ${String(r.requests).padStart(9)}  ${String(r.assumeRoles).padStart(11)}  ${r.perThousandRequests.toFixed(2).padStart(9)}  ${String(r.peakPerSecond).padStart(6)}  ${String(r.peakPerMinute).padStart(8)}`,
    );
  }
  // The bound: a container assumes a tenant at most once per 40 minutes (an hour's session,
  // renewed 20 minutes before its end), for at most 500 tenants; and never more than once a request.
  const sessionUseSeconds = 40 * 60;
  console.log(
    `\n   Bound: AssumeRole/s <= min(requests/s, containers x min(tenants, 500) / ${sessionUseSeconds} s); STS's default quota is ${STS_QUOTA_PER_SECOND}/s per account and Region.`,
  );
  for (const [containers, tenants] of [
    [50, 200],
    [500, 500],
    [2880, 500],
  ] as const)
    console.log(
      `   ${containers} containers x ${tenants} tenants: at most ${((containers * Math.min(tenants, 500)) / sessionUseSeconds).toFixed(1)}/s sustained`,
    );
} finally {
  await dynamodb.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
