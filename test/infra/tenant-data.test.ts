/**
 * The TenantData role in the synthesized template (docs/architecture.md, 27): its policy fences
 * the table by `dynamodb:LeadingKeys` and the bucket by prefix to the session's tenant tag, from
 * the same definition the local IAM check evaluates (shared/iam.ts); every route function on
 * tenant data may assume it, with its tag, and knows its ARN.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PARTITIONS } from '../../shared/db/keys.js';
import { TABLE_KEYS } from '../../shared/db/table.js';
import { fencedToPlatform, OWN_ROLE_OBJECT_PATTERNS } from '../../shared/iam.js';
import { ROUTES } from '../../shared/routes/index.js';
import { resourcesOfType, synth, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synth();
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

/** A route function's own role: its statements by route id, from each nested stack's policies. */
function ownStatementsByRoute(): Map<string, any[]> {
  const byRoute = new Map<string, any[]>();
  for (const template of s.nested.values()) {
    const roles = new Map(
      resourcesOfType(template, 'AWS::IAM::Role').map(([id, r]) => [id, String(r.Properties.Description ?? '')]),
    );
    for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
      for (const ref of policy.Properties.Roles ?? []) {
        const route = /^Gatehouse route (\S+)$/.exec(roles.get(ref.Ref) ?? '')?.[1];
        if (!route) continue;
        byRoute.set(route, [...(byRoute.get(route) ?? []), ...policy.Properties.PolicyDocument.Statement]);
      }
    }
  }
  return byRoute;
}

const names = (st: any, param: string) => JSON.stringify(st.Resource).includes(`"Ref":"${param}"`);

describe("a tenant route's own role (docs/architecture.md, 27)", () => {
  it('holds no table or bucket permission without a platform condition: tenant data needs the TenantData role', () => {
    const byRoute = ownStatementsByRoute();
    const fenced = ROUTES.filter(fencedToPlatform);
    expect(fenced.length).toBeGreaterThan(130);
    let tableStatements = 0;
    let bucketStatements = 0;
    for (const route of fenced) {
      const statements = byRoute.get(route.id);
      expect(statements, route.id).toBeDefined();
      for (const st of statements!) {
        if (names(st, 'TableArn')) {
          tableStatements++;
          const leading = st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
          expect(leading, `${route.id}: ${JSON.stringify(st)}`).toBeDefined();
          // Only the platform's partitions (shared/db/keys.ts), none of a tenant's.
          for (const pattern of leading!) expect(PLATFORM_PARTITIONS as readonly string[]).toContain(pattern);
        }
        if (names(st, 'BucketArn')) {
          bucketStatements++;
          const text = JSON.stringify(st);
          const listing = st.Condition?.StringLike?.['s3:prefix'];
          if (listing) expect(listing, route.id).toEqual(OWN_ROLE_OBJECT_PATTERNS);
          else expect(text, route.id).toMatch(/\/feeds\/\*"/);
          expect(text, route.id).not.toMatch(/"\/\*"|tenants\//);
        }
      }
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
