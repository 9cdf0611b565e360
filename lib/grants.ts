/**
 * A route's `grants` as IAM statements: exactly what the route table says, nothing more.
 *
 * Written out instead of `table.grantReadData()` / `bucket.grantRead()` on purpose: the CDK
 * grants use action wildcards on S3 (`s3:GetObject*`, `s3:List*`, `s3:DeleteObject*`...) and
 * `<table>/index/*` on DynamoDB, broader than what the code calls. Here the indexes are the
 * three of TABLE_KEYS by name and every action is named.
 */
import { Aws, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { RATE_PK_PREFIX } from '../shared/db/keys.js';
import { TABLE_KEYS } from '../shared/db/table.js';
import type { RouteDef, RouteGrants } from '../shared/routes/index.js';

/** ARNs of the shared resources, as seen from the stack that holds the function. */
export interface ServiceArns {
  tableArn: string;
  bucketArn: string;
  userPoolArn: string;
  eventBusArn: string;
}

// No Scan: the data model serves every access pattern by key or index (docs/data-model.md).
// Transactions need no action of their own: TransactWriteItems checks Put/Update/Delete/
// ConditionCheckItem per item, TransactGetItems checks GetItem.
const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

// ListBucket also authorises HeadBucket, which the health check uses.
const BUCKET_READ = ['s3:ListBucket'];
const OBJECT_READ = ['s3:GetObject'];
const OBJECT_WRITE = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];

/** Our jobs only: their names start with `gh-` (shared/adapters/speech/transcribe.ts). */
export const TRANSCRIPTION_JOBS = `arn:${Aws.PARTITION}:transcribe:${Aws.REGION}:${Aws.ACCOUNT_ID}:transcription-job/gh-*`;
/** Foundation models in any region (a global inference profile routes across regions) and this account's profiles. */
export const BEDROCK_MODELS = [
  `arn:${Aws.PARTITION}:bedrock:*::foundation-model/*`,
  `arn:${Aws.PARTITION}:bedrock:*:${Aws.ACCOUNT_ID}:inference-profile/*`,
];

export function grantStatements(grants: RouteGrants, arns: ServiceArns): iam.PolicyStatement[] {
  const statements: iam.PolicyStatement[] = [];
  if (grants.table) {
    const actions = grants.table === 'write' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ;
    statements.push(new iam.PolicyStatement({ actions, resources: [arns.tableArn] }));
    statements.push(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: TABLE_KEYS.indexes.map((index) => `${arns.tableArn}/index/${index.name}`),
      }),
    );
  }
  if (grants.bucket) {
    const objectActions = grants.bucket === 'write' ? [...OBJECT_READ, ...OBJECT_WRITE] : OBJECT_READ;
    statements.push(new iam.PolicyStatement({ actions: BUCKET_READ, resources: [arns.bucketArn] }));
    statements.push(new iam.PolicyStatement({ actions: objectActions, resources: [`${arns.bucketArn}/*`] }));
  }
  if (grants.userPool && grants.userPool.length > 0) {
    for (const action of grants.userPool) {
      if (!/^cognito-idp:[A-Za-z]+$/.test(action)) {
        throw new Error(`userPool grant "${action}" must be one named cognito-idp action, no wildcard`);
      }
    }
    statements.push(new iam.PolicyStatement({ actions: [...grants.userPool], resources: [arns.userPoolArn] }));
  }
  if (grants.eventBus) {
    statements.push(new iam.PolicyStatement({ actions: ['events:PutEvents'], resources: [arns.eventBusArn] }));
  }
  if (grants.speech) {
    const actions = grants.speech === 'write' ? ['transcribe:StartTranscriptionJob', 'transcribe:GetTranscriptionJob'] : ['transcribe:GetTranscriptionJob'];
    statements.push(new iam.PolicyStatement({ actions, resources: [TRANSCRIPTION_JOBS] }));
  }
  if (grants.ai) {
    // Converse calls InvokeModel on the inference profile and on the models it routes to.
    statements.push(new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: BEDROCK_MODELS }));
  }
  return statements;
}

/**
 * The handler chain counts calls in the table (shared/db/rate-limits.ts): per IP for routes with a
 * `rateLimit`, per tenant for every authenticated call on a plan with a rate. A route that only
 * reads the table may still UpdateItem those counters, and nothing else: the condition admits only
 * items whose partition key starts with `RATE#`.
 */
export function rateCounterStatements(route: Pick<RouteDef, 'access' | 'rateLimit' | 'grants'>, tableArn: string): iam.PolicyStatement[] {
  const counts = route.access !== 'public' || Boolean(route.rateLimit);
  if (!counts || route.grants.table === 'write') return [];
  return [
    new iam.PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_PK_PREFIX}*`] } },
    }),
  ];
}

/** Whether the grants reach objects in the bucket, which only a `<bucket>/*` resource can. */
export function grantsObjects(grants: RouteGrants): boolean {
  return Boolean(grants.bucket);
}

/**
 * The cdk-nag acknowledgements of the wildcards the grants need (resources named at run time),
 * each with its reason: for a route's function and a worker's alike.
 */
export function acknowledgeGrantWildcards(scope: IConstruct, grants: RouteGrants): void {
  if (grantsObjects(grants)) {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::<BucketArn>/*]',
      reason:
        'Object actions can only name objects by key, and keys are made at run time per tenant and ' +
        'upload; the actions themselves are listed one by one (lib/grants.ts).',
    });
  }
  if (grants.speech) {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:transcribe:<AWS::Region>:<AWS::AccountId>:transcription-job/gh-*]',
      reason: 'Job names are made at run time from the recording key; the wildcard is limited to our gh- prefix.',
    });
  }
  if (grants.ai) {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/*]',
      reason: 'The model id is configuration (BEDROCK_MODEL_ID) and a global inference profile routes to the model in any region.',
    });
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*:<AWS::AccountId>:inference-profile/*]',
      reason: 'The inference profile is configuration (BEDROCK_MODEL_ID); only bedrock:InvokeModel is allowed on it.',
    });
  }
}
