/**
 * The TenantData role in the synthesized template (docs/architecture.md, 27): its policy fences
 * the table by `dynamodb:LeadingKeys` and the bucket by prefix to the session's tenant tag, from
 * the same definition the local IAM check evaluates (shared/iam.ts); every route function on
 * tenant data may assume it, with its tag, and knows its ARN.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_KEYS } from '../../shared/db/table.js';
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
