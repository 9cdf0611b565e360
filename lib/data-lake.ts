/**
 * The data lake in AWS (docs/data-lake.md): the Athena workgroup and the role queries run as.
 *
 * - The files live in the files bucket under `lake/` (written by the export worker); each tenant's
 *   Glue database and tables are created by that worker when it first writes for the tenant
 *   (shared/adapters/lake/catalog.ts), named `<databasePrefix>_<tenant>`.
 * - The workgroup enforces its configuration: results under `lake-results/` of the files bucket
 *   (expired after a day, lib/storage.ts), and a bytes-scanned cutoff per query.
 * - The query role may use the workgroup, read the lake's Glue databases and the lake's files and
 *   write results; the query route assumes it with a session policy naming the caller's tenant
 *   only (shared/adapters/lake/athena.ts), so each query holds the intersection: one tenant.
 */
import { Aws, Stack, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LAKE_BOUNDS, LAKE_PREFIX, LAKE_RESULTS_PREFIX } from '../shared/vocabulary/data-lake.js';
import { LAKE_SESSION } from '../shared/iam.js';

export interface DataLakeProps {
  readonly bucket: s3.IBucket;
  readonly stage: string;
}

/** The Glue database prefix of a stage's tenants (Glue names: lower case, digits, underscores). */
export const lakeDatabasePrefix = (stage: string) => `gatehouse_${stage.toLowerCase().replace(/[^a-z0-9]/g, '_')}_lake`;
export const lakeWorkgroupName = (stage: string) => `gatehouse-${stage}-lake`;

export class DataLake extends Construct {
  readonly workgroupName: string;
  readonly databasePrefix: string;
  readonly queryRole: iam.Role;

  constructor(scope: Construct, id: string, props: DataLakeProps) {
    super(scope, id);
    this.workgroupName = lakeWorkgroupName(props.stage);
    this.databasePrefix = lakeDatabasePrefix(props.stage);
    new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: this.workgroupName,
      description: "Gatehouse data lake: tenants' read-only SQL (POST /api/v1/data-lake/query)",
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        bytesScannedCutoffPerQuery: LAKE_BOUNDS.maxBytesScanned,
        publishCloudWatchMetricsEnabled: true,
        resultConfiguration: {
          outputLocation: `s3://${props.bucket.bucketName}/${LAKE_RESULTS_PREFIX}`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });

    const glue = (resource: string) => `arn:${Aws.PARTITION}:glue:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
    this.queryRole = new iam.Role(this, 'QueryRole', {
      description: 'Assumed by the data-lake query route with a session policy naming one tenant',
      // Assumable by principals of this account that are allowed sts:AssumeRole on it: the query route only.
      assumedBy: new iam.AccountRootPrincipal(),
      inlinePolicies: {
        lake: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: [...LAKE_SESSION],
              resources: [
                `arn:${Aws.PARTITION}:athena:${Aws.REGION}:${Aws.ACCOUNT_ID}:workgroup/${this.workgroupName}`,
              ],
            }),
            new iam.PolicyStatement({
              actions: [
                'glue:GetDatabase',
                'glue:GetTable',
                'glue:GetTables',
                'glue:GetPartition',
                'glue:GetPartitions',
              ],
              resources: [
                glue('catalog'),
                glue(`database/${this.databasePrefix}_*`),
                glue(`table/${this.databasePrefix}_*/*`),
              ],
            }),
            new iam.PolicyStatement({
              actions: ['s3:GetObject'],
              resources: [props.bucket.arnForObjects(`${LAKE_PREFIX}*`)],
            }),
            new iam.PolicyStatement({
              actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
              resources: [props.bucket.arnForObjects(`${LAKE_RESULTS_PREFIX}*`)],
            }),
            new iam.PolicyStatement({
              actions: ['s3:ListBucket', 's3:GetBucketLocation'],
              resources: [props.bucket.bucketArn],
            }),
          ],
        }),
      },
    });
    const bucketArn = `<${Stack.of(this).getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket)}.Arn>`;
    const reason =
      "Tenants' Glue databases and the lake's keys are made at run time; each query narrows this role to one tenant with a session policy (shared/adapters/lake/athena.ts).";
    Validations.of(this.queryRole).acknowledge(
      ...[
        `Resource::${bucketArn}/${LAKE_RESULTS_PREFIX}*`,
        `Resource::${bucketArn}/${LAKE_PREFIX}*`,
        `Resource::arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>:database/${this.databasePrefix}_*`,
        `Resource::arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>:table/${this.databasePrefix}_*/*`,
      ].map((finding) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason })),
    );
  }
}
