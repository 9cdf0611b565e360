/**
 * The TenantData role (docs/architecture.md, 27): what a route's or a worker's calls on one
 * tenant's data run as. The function assumes it with the session tag `tenant_id` (and a session
 * policy of its own actions: shared/adapters/tenant-credentials.ts); the policy here allows the table only for
 * items and queries whose partition keys all lead with that tenant's (`dynamodb:LeadingKeys`), plus
 * the platform partitions a tenant's transactions write, and the bucket only under the tenant's
 * prefixes. One definition (shared/iam.ts) gives this policy and the local IAM check's.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../shared/db/table.js';
import {
  TENANT_DATA_BUCKET_ACTIONS,
  TENANT_DATA_OBJECT_ACTIONS,
  TENANT_DATA_TABLE_ACTIONS,
  tenantLeadingKeys,
  tenantObjectPatterns,
} from '../shared/iam.js';
import { TENANT_TAG } from '../shared/tenant-scope.js';

/** The session's tenant, as IAM reads it in a policy. */
export const SESSION_TENANT = `\${aws:PrincipalTag/${TENANT_TAG}}`;

/** What a route function's role needs to assume the TenantData role with its tag. */
export const ASSUME_TENANT_DATA = ['sts:AssumeRole', 'sts:TagSession'] as const;

export interface TenantDataProps {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
}

export class TenantData extends Construct {
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: TenantDataProps) {
    super(scope, id);
    const tableArn = props.table.tableArn;
    this.role = new iam.Role(this, 'Role', {
      description:
        'Assumed by route and worker functions, tagged with a tenant, for the table items and objects of that tenant only',
      // Assumable, with a tenant_id tag, by principals of this account allowed sts:AssumeRole on it: the route functions.
      assumedBy: new iam.AccountRootPrincipal().withSessionTags(),
      inlinePolicies: {
        tenant: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              sid: 'TenantItems',
              actions: [...TENANT_DATA_TABLE_ACTIONS],
              resources: [tableArn, ...TABLE_KEYS.indexes.map((index) => `${tableArn}/index/${index.name}`)],
              conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': tenantLeadingKeys(SESSION_TENANT) } },
            }),
            new iam.PolicyStatement({
              sid: 'TenantObjects',
              actions: [...TENANT_DATA_OBJECT_ACTIONS],
              resources: tenantObjectPatterns(SESSION_TENANT).map((p) => props.bucket.arnForObjects(p)),
            }),
            new iam.PolicyStatement({
              sid: 'TenantListing',
              actions: [...TENANT_DATA_BUCKET_ACTIONS],
              resources: [props.bucket.bucketArn],
              conditions: { StringLike: { 's3:prefix': tenantObjectPatterns(SESSION_TENANT) } },
            }),
          ],
        }),
      },
    });
    const bucketArn = `<${Stack.of(this).getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket)}.Arn>`;
    const reason =
      'Object keys are made at run time per tenant; each pattern is fenced to the session tenant ' +
      '(${aws:PrincipalTag/tenant_id}), which the assuming route function tags (shared/adapters/tenant-credentials.ts).';
    Validations.of(this.role).acknowledge(
      // cdk-nag names a policy variable `<aws:PrincipalTag/tenant_id>`.
      ...tenantObjectPatterns(`<aws:PrincipalTag/${TENANT_TAG}>`).map((p) => ({
        id: `AwsSolutions-IAM5[Resource::${bucketArn}/${p}]`,
        reason,
      })),
    );
  }
}
