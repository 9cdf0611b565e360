/**
 * The TenantData role in the synthesized template (docs/architecture.md, 27): its policy fences
 * the table by `dynamodb:LeadingKeys` and the bucket by prefix to the session's tenant tag, from
 * the same definition the local IAM check evaluates (shared/iam.ts); every route function on
 * tenant data may assume it, with its tag, and knows its ARN.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PARTITIONS } from '../../shared/db/keys.js';
import { TABLE_KEYS } from '../../shared/db/table.js';
import {
  fencedToPlatform,
  OWN_ROLE_OBJECT_PATTERNS,
  PLATFORM_WORKERS,
  tenantSessionPolicy,
  workerFencedToPlatform,
} from '../../shared/iam.js';
import { ROUTES } from '../../shared/routes/index.js';
import { DEPLOYED_WORKERS } from '../../shared/workers.js';
import { defaultTemplates, resourcesOfType, type Templates } from './synth.js';

let s: Templates;
beforeAll(() => {
  s = defaultTemplates();
});

const TAG = '${aws:PrincipalTag/tenant_id}';

function tenantDataRole(): { AssumeRolePolicyDocument: any; Policies: any[] } {
  const roles = resourcesOfType(s.parent, 'AWS::IAM::Role').filter(([id]) => id.startsWith('TenantDataRole'));
  expect(roles).toHaveLength(1);
  return roles[0]![1].Properties;
}

describe('the TenantData role', () => {
  it("allows the table's items and indexes only where every partition key leads with the session's tenant", () => {
    const statements = tenantDataRole().Policies.flatMap((p) => p.PolicyDocument.Statement);
    const items = statements.find((st) => st.Sid === 'TenantItems');
    expect(items.Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [`T#${TAG}`, `T#${TAG}#*`, 'SLATIMERS', 'WFTIMERS', 'PUBLICKEY#*'],
      },
    });
    expect(items.Resource).toHaveLength(1 + TABLE_KEYS.indexes.length);
    expect(items.Action).not.toContain('dynamodb:Scan');
    expect(items.Action).not.toContain('dynamodb:DescribeTable');
    // Every other statement is on the bucket, under the tenant's prefixes.
    const objects = statements.find((st) => st.Sid === 'TenantObjects');
    expect(JSON.stringify(objects.Resource)).toContain(`/tenants/${TAG}/*`);
    for (const resource of objects.Resource) expect(JSON.stringify(resource)).toContain(TAG);
    const listing = statements.find((st) => st.Sid === 'TenantListing');
    for (const prefix of listing.Condition.StringLike['s3:prefix']) expect(prefix).toContain(TAG);
    expect(statements).toHaveLength(3);
  });

  it('is assumed with a session tag, by principals of the account allowed to (the route functions)', () => {
    const trust = tenantDataRole().AssumeRolePolicyDocument.Statement;
    expect(trust.flatMap((st: any) => [st.Action].flat()).sort()).toEqual(['sts:AssumeRole', 'sts:TagSession']);
  });

  it('every route function with table or bucket grants may assume it and is told its ARN', () => {
    const onData = ROUTES.filter((r) => r.grants.table || r.grants.bucket).length;
    let found = 0;
    for (const template of s.nested.values()) {
      const functions = resourcesOfType(template, 'AWS::Lambda::Function').filter(
        ([, f]) => f.Properties.Environment?.Variables?.TENANT_DATA_ROLE_ARN,
      );
      const assuming = resourcesOfType(template, 'AWS::IAM::Policy').filter(([, p]) =>
        p.Properties.PolicyDocument.Statement.some(
          (st: any) =>
            JSON.stringify(st.Action) === JSON.stringify(['sts:AssumeRole', 'sts:TagSession']) &&
            JSON.stringify(st.Resource) === JSON.stringify({ Ref: 'TenantDataRoleArn' }),
        ),
      );
      found += assuming.length;
      if (assuming.length > 0) expect(functions.length).toBeGreaterThanOrEqual(assuming.length);
    }
    expect(found).toBe(onData);
  });
});

/** A route's or a worker's function's own role: its statements by route or worker id, from each nested stack's policies. */
function ownStatementsOf(kind: 'route' | 'worker'): Map<string, any[]> {
  const byRoute = new Map<string, any[]>();
  const described = new RegExp(`^Gatehouse ${kind} (\\S+)$`);
  for (const template of kind === 'route' ? s.nested.values() : [s.workers]) {
    const roles = new Map(
      resourcesOfType(template, 'AWS::IAM::Role').map(([id, r]) => [id, String(r.Properties.Description ?? '')]),
    );
    for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
      for (const ref of policy.Properties.Roles ?? []) {
        const route = described.exec(roles.get(ref.Ref) ?? '')?.[1];
        if (!route) continue;
        byRoute.set(route, [...(byRoute.get(route) ?? []), ...policy.Properties.PolicyDocument.Statement]);
      }
    }
  }
  return byRoute;
}

const names = (st: any, param: string) => JSON.stringify(st.Resource).includes(`"Ref":"${param}"`);

/**
 * Asserts a function's own statements reach the platform only: each table statement with a
 * `dynamodb:LeadingKeys` condition naming platform partitions, each bucket statement under
 * `feeds/`. Answers how many table and bucket statements it saw.
 */
function expectFencedToPlatform(id: string, statements: any[]): { table: number; bucket: number } {
  let table = 0;
  let bucket = 0;
  for (const st of statements) {
    if (names(st, 'TableArn')) {
      table++;
      const leading = st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
      expect(leading, `${id}: ${JSON.stringify(st)}`).toBeDefined();
      // Only the platform's partitions (shared/db/keys.ts), none of a tenant's.
      for (const pattern of leading!) expect(PLATFORM_PARTITIONS as readonly string[]).toContain(pattern);
    }
    if (names(st, 'BucketArn')) {
      bucket++;
      const text = JSON.stringify(st);
      const listing = st.Condition?.StringLike?.['s3:prefix'];
      if (listing) expect(listing, id).toEqual(OWN_ROLE_OBJECT_PATTERNS);
      else expect(text, id).toMatch(/\/feeds\/\*"/);
      expect(text, id).not.toMatch(/"\/\*"|tenants\//);
    }
  }
  return { table, bucket };
}

describe("a tenant route's own role (docs/architecture.md, 27)", () => {
  it('holds no table or bucket permission without a platform condition: tenant data needs the TenantData role', () => {
    const byRoute = ownStatementsOf('route');
    const fenced = ROUTES.filter(fencedToPlatform);
    expect(fenced.length).toBeGreaterThan(130);
    let tableStatements = 0;
    let bucketStatements = 0;
    for (const route of fenced) {
      const statements = byRoute.get(route.id);
      expect(statements, route.id).toBeDefined();
      const seen = expectFencedToPlatform(route.id, statements!);
      tableStatements += seen.table;
      bucketStatements += seen.bucket;
    }
    // Every fenced route's table grant was seen (its items, its indexes, and the rate counters'),
    // and every bucket grant (the listing and the objects).
    expect(tableStatements).toBeGreaterThanOrEqual(2 * fenced.filter((r) => r.grants.table).length);
    expect(bucketStatements).toBe(2 * fenced.filter((r) => r.grants.bucket).length);
  });

  it('the routes left unfenced are the platform functions the docs list, with no tenant decided or found', () => {
    const unfenced = ROUTES.filter((r) => (r.grants.table || r.grants.bucket) && !fencedToPlatform(r)).map((r) => r.id);
    expect(unfenced.sort()).toEqual(
      [
        'health',
        'portal.login',
        'portal.register',
        'portal.register.confirm',
        'portal.register.confirm.page',
        'tenants.list',
        'tenants.create',
        'liveStatus',
        'developer.keys.issue',
      ].sort(),
    );
  });
});

/** The workers' functions, by worker id, in the workers' nested stack. */
function workerFunctions(): Map<string, any> {
  const byWorker = new Map<string, any>();
  for (const [, f] of resourcesOfType(s.workers, 'AWS::Lambda::Function')) {
    const id = /^Gatehouse worker ([^:]+):/.exec(String(f.Properties.Description ?? ''))?.[1];
    if (id) byWorker.set(id, f.Properties);
  }
  return byWorker;
}

describe("a worker's own role (docs/architecture.md, 27)", () => {
  const onData = DEPLOYED_WORKERS.filter((w) => w.grants.table || w.grants.bucket);

  it('holds no table or bucket permission without a platform condition: tenant data needs the TenantData role', () => {
    const byWorker = ownStatementsOf('worker');
    const fenced = DEPLOYED_WORKERS.filter(workerFencedToPlatform);
    expect(fenced.length).toBeGreaterThan(10);
    for (const worker of fenced) {
      const statements = byWorker.get(worker.id);
      expect(statements, worker.id).toBeDefined();
      const seen = expectFencedToPlatform(worker.id, statements!);
      // Its items and its indexes (and the heartbeat's counters), its listing and its objects.
      if (worker.grants.table) expect(seen.table, worker.id).toBeGreaterThanOrEqual(2);
      expect(seen.bucket, worker.id).toBe(worker.grants.bucket ? 2 : 0);
    }
  });

  it('the workers left unfenced are the platform workers the docs list', () => {
    const unfenced = onData.filter((w) => !workerFencedToPlatform(w)).map((w) => w.id);
    expect(unfenced.sort()).toEqual([...PLATFORM_WORKERS].sort());
    expect(PLATFORM_WORKERS).toEqual([]);
  });

  it("every worker on tenant data may assume the TenantData role, with its own actions as the session's policy", () => {
    const functions = workerFunctions();
    const byWorker = ownStatementsOf('worker');
    for (const worker of DEPLOYED_WORKERS) {
      const variables = functions.get(worker.id)?.Environment?.Variables ?? {};
      const assumes = (byWorker.get(worker.id) ?? []).some(
        (st) => JSON.stringify(st.Action) === JSON.stringify(['sts:AssumeRole', 'sts:TagSession']),
      );
      if (onData.includes(worker)) {
        expect(variables.TENANT_SESSION_POLICY, worker.id).toBe(tenantSessionPolicy(worker.grants));
        expect(variables.TENANT_DATA_ROLE_ARN, worker.id).toEqual({ Ref: 'TenantDataRoleArn' });
        expect(assumes, worker.id).toBe(true);
      } else {
        // The stream's publisher: the bus only.
        expect(variables.TENANT_SESSION_POLICY, worker.id).toBeUndefined();
        expect(assumes, worker.id).toBe(false);
      }
    }
    expect(functions.size).toBe(DEPLOYED_WORKERS.length);
  });
});
