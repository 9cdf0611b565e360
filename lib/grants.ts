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
import { PLATFORM_PARTITIONS, RATE_PK_PREFIX } from '../shared/db/keys.js';
import { TABLE_KEYS } from '../shared/db/table.js';
import {
  allowedActions,
  AUDIT_SEAL,
  AUDIT_VERIFY,
  OWN_ROLE_OBJECT_PATTERNS,
  QUEUE_DEPTH,
  QUEUE_SEND,
} from '../shared/iam.js';
import { queueUrlVariable } from '../shared/adapters/queue.js';
import type { RouteGrants } from '../shared/routes/index.js';
import type { QueueTarget } from '../shared/workers.js';

/** ARNs of the shared resources, as seen from the stack that holds the function. */
export interface ServiceArns {
  tableArn: string;
  bucketArn: string;
  userPoolArn: string;
  eventBusArn: string;
  /** The secrets key (lib/secrets.ts); empty where no grant names it. */
  secretsKeyArn?: string;
  /** The audit key (lib/secrets.ts); empty where no grant needs it (no table write, no verify). */
  auditKeyArn?: string;
  /** The sender of email; its SES identities (the address and its domain) are what SendEmail may use. */
  emailFrom?: string;
  /** The ARNs of the queues the grants send to, by target (`<id>`, `<id>:dead-letters`). */
  queueArns?: Record<string, string>;
  /** Connectors' schedule group and the role Scheduler assumes (lib/connector-schedules.ts), where a grant names them. */
  connectorSchedules?: { group: string; roleArn: string };
  /** The role data-lake queries assume (lib/data-lake.ts); empty where no grant names it. */
  lakeQueryRoleArn?: string;
  /** The tenants' Glue databases are `<prefix>_<tenant>`. */
  lakeDatabasePrefix?: string;
  /** The role a route's calls on one tenant's data run as (lib/tenant-data.ts); empty where no route of the stack has table or bucket grants. */
  tenantDataRoleArn?: string;
}

/**
 * Whether a route's function touches tenant data (a table or bucket grant): the handler chain runs
 * its calls on a decided tenant's data as that tenant (shared/http/handler.ts), so it assumes the
 * TenantData role.
 */
export const onTenantData = (route: { grants: RouteGrants }): boolean =>
  Boolean(route.grants.table || route.grants.bucket);

/**
 * The queues some of `grants` send to, imported as parameters through `param`: their ARNs (for the
 * statements) and their URLs as the variables shared/adapters/queue.ts reads.
 */
export function importQueues(
  grants: readonly RouteGrants[],
  refs: Record<string, { arn: string; url: string }>,
  param: (name: string, value: string) => string,
): { queueArns: Record<string, string>; environment: Record<string, string> } {
  const targets = [
    ...new Set(grants.flatMap((g) => [...allowedActions(g).queues, ...allowedActions(g).queueDepths])),
  ].sort();
  const queueArns: Record<string, string> = {};
  const environment: Record<string, string> = {};
  for (const target of targets) {
    const ref = refs[target];
    if (!ref) throw new Error(`a grant names queue ${target}, which the stack does not have`);
    const name = target
      .split(/[-:]/)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('');
    queueArns[target] = param(`Queue${name}Arn`, ref.arn);
    environment[queueUrlVariable(target as QueueTarget)] = param(`Queue${name}Url`, ref.url);
  }
  return { queueArns, environment };
}

/** Our jobs only: their names start with `gh-` (shared/adapters/speech/transcribe.ts). */
export const TRANSCRIPTION_JOBS = `arn:${Aws.PARTITION}:transcribe:${Aws.REGION}:${Aws.ACCOUNT_ID}:transcription-job/gh-*`;
/** Foundation models in any region (a global inference profile routes across regions) and this account's profiles. */
export const BEDROCK_MODELS = [
  `arn:${Aws.PARTITION}:bedrock:*::foundation-model/*`,
  `arn:${Aws.PARTITION}:bedrock:*:${Aws.ACCOUNT_ID}:inference-profile/*`,
];

/**
 * The statements of `grants` (actions from shared/iam.ts, the list the local runtime enforces),
 * plus the rate counters' actions the route needs (shared/iam.ts `counterActions`) that the table
 * grant alone does not allow, on the counters only: the condition admits only items whose
 * partition key starts with `RATE#`.
 */
export function grantStatements(
  grants: RouteGrants,
  arns: ServiceArns,
  counters: readonly string[] = [],
  fenced = false,
): iam.PolicyStatement[] {
  const allowed = allowedActions(grants, counters);
  const statements: iam.PolicyStatement[] = [];
  // A function serving a tenant route (shared/iam.ts `fencedToPlatform`) reaches platform
  // partitions only with its own role; a tenant's items need the TenantData role.
  const platformOnly = fenced
    ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...PLATFORM_PARTITIONS] } } }
    : {};
  if (allowed.table.length > 0) {
    statements.push(
      new iam.PolicyStatement({ actions: [...allowed.table], resources: [arns.tableArn], ...platformOnly }),
    );
    statements.push(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: TABLE_KEYS.indexes.map((index) => `${arns.tableArn}/index/${index.name}`),
        ...platformOnly,
      }),
    );
  }
  if (allowed.rateCounters.length > 0) {
    statements.push(
      new iam.PolicyStatement({
        actions: [...allowed.rateCounters],
        resources: [arns.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_PK_PREFIX}*`] } },
      }),
    );
  }
  if (allowed.bucket.length > 0 && fenced) {
    // The same for the bucket: the platform's objects (feeds' exports) only.
    statements.push(
      new iam.PolicyStatement({
        actions: [...allowed.bucket],
        resources: [arns.bucketArn],
        conditions: { StringLike: { 's3:prefix': OWN_ROLE_OBJECT_PATTERNS } },
      }),
    );
    statements.push(
      new iam.PolicyStatement({
        actions: [...allowed.objects],
        resources: OWN_ROLE_OBJECT_PATTERNS.map((pattern) => `${arns.bucketArn}/${pattern}`),
      }),
    );
  } else if (allowed.bucket.length > 0) {
    statements.push(new iam.PolicyStatement({ actions: [...allowed.bucket], resources: [arns.bucketArn] }));
    statements.push(new iam.PolicyStatement({ actions: [...allowed.objects], resources: [`${arns.bucketArn}/*`] }));
  }
  if (allowed.userPool.length > 0) {
    for (const action of allowed.userPool) {
      if (!/^cognito-idp:[A-Za-z]+$/.test(action)) {
        throw new Error(`userPool grant "${action}" must be one named cognito-idp action, no wildcard`);
      }
    }
    statements.push(new iam.PolicyStatement({ actions: [...allowed.userPool], resources: [arns.userPoolArn] }));
  }
  const other = (prefix: string) => allowed.other.filter((a) => a.startsWith(prefix));
  // Email only from the configured sender: its address and its domain identity. Without one the
  // function gets no SES permission at all (and refuses email integrations).
  if (other('ses:').length > 0 && arns.emailFrom) {
    const identity = (name: string) => `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${name}`;
    statements.push(
      new iam.PolicyStatement({
        actions: other('ses:'),
        resources: [identity(arns.emailFrom), identity(arns.emailFrom.split('@')[1]!)],
        conditions: { StringEquals: { 'ses:FromAddress': arns.emailFrom } },
      }),
    );
  }
  const auditActions: readonly string[] = [...AUDIT_SEAL, ...AUDIT_VERIFY];
  const secretsKey = other('kms:').filter((a) => !auditActions.includes(a));
  const auditKey = other('kms:').filter((a) => auditActions.includes(a));
  if (secretsKey.length > 0) {
    if (!arns.secretsKeyArn) throw new Error('a secrets grant needs the secrets key');
    statements.push(new iam.PolicyStatement({ actions: secretsKey, resources: [arns.secretsKeyArn] }));
  }
  if (auditKey.length > 0) {
    if (!arns.auditKeyArn) throw new Error('an audit grant needs the audit key');
    statements.push(new iam.PolicyStatement({ actions: auditKey, resources: [arns.auditKeyArn] }));
  }
  if (allowed.queues.length > 0) {
    const resources = allowed.queues.map((target) => {
      const arn = arns.queueArns?.[target];
      if (!arn) throw new Error(`a grant sends to queue ${target}, whose ARN the function's stack does not import`);
      return arn;
    });
    statements.push(new iam.PolicyStatement({ actions: [...QUEUE_SEND], resources }));
  }
  if (allowed.queueDepths.length > 0) {
    const resources = allowed.queueDepths.map((target) => {
      const arn = arns.queueArns?.[target];
      if (!arn) throw new Error(`a grant reads queue ${target}, whose ARN the function's stack does not import`);
      return arn;
    });
    statements.push(new iam.PolicyStatement({ actions: [...QUEUE_DEPTH], resources }));
  }
  if (other('scheduler:').length > 0) {
    if (!arns.connectorSchedules) throw new Error('a schedules grant needs the connector schedule group and role');
    const { group, roleArn } = arns.connectorSchedules;
    statements.push(
      new iam.PolicyStatement({
        actions: other('scheduler:'),
        resources: [`arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/${group}/conn-*`],
      }),
      new iam.PolicyStatement({
        actions: other('iam:'),
        resources: [roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }
  if (other('events:').length > 0)
    statements.push(new iam.PolicyStatement({ actions: other('events:'), resources: [arns.eventBusArn] }));
  if (other('transcribe:').length > 0)
    statements.push(new iam.PolicyStatement({ actions: other('transcribe:'), resources: [TRANSCRIPTION_JOBS] }));
  // Converse calls InvokeModel on the inference profile and on the models it routes to.
  if (other('bedrock:').length > 0)
    statements.push(new iam.PolicyStatement({ actions: other('bedrock:'), resources: BEDROCK_MODELS }));
  if (other('glue:').length > 0) {
    if (!arns.lakeDatabasePrefix) throw new Error('a lake catalog grant needs the lake database prefix');
    const glue = (resource: string) => `arn:${Aws.PARTITION}:glue:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
    statements.push(
      new iam.PolicyStatement({
        actions: other('glue:'),
        resources: [
          glue('catalog'),
          glue(`database/${arns.lakeDatabasePrefix}_*`),
          glue(`table/${arns.lakeDatabasePrefix}_*/*`),
        ],
      }),
    );
  }
  if (other('sts:').length > 0) {
    if (!arns.lakeQueryRoleArn) throw new Error('a lake query grant needs the lake query role');
    statements.push(new iam.PolicyStatement({ actions: other('sts:'), resources: [arns.lakeQueryRoleArn] }));
  }
  return statements;
}

/** Whether the grants reach objects in the bucket, which only a `<bucket>/*` resource can. */
export function grantsObjects(grants: RouteGrants): boolean {
  return Boolean(grants.bucket);
}

/**
 * The cdk-nag acknowledgements of the wildcards the grants need (resources named at run time),
 * each with its reason: for a route's function and a worker's alike.
 */
export function acknowledgeGrantWildcards(
  scope: IConstruct,
  grants: RouteGrants,
  lakePrefix?: string,
  fenced = false,
): void {
  if (grantsObjects(grants) && fenced) {
    Validations.of(scope).acknowledge(
      ...OWN_ROLE_OBJECT_PATTERNS.map((pattern) => ({
        id: `AwsSolutions-IAM5[Resource::<BucketArn>/${pattern}]`,
        reason:
          "The platform's objects (the feeds' exports) are named at run time under their prefix; a tenant's objects need the TenantData role.",
      })),
    );
  } else if (grantsObjects(grants)) {
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
  if (grants.schedules) {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<ConnectorScheduleGroup>/conn-*]',
      reason:
        "A schedule is made per connector at run time, named after the connector's id; the wildcard is limited to the connectors' group and the conn- prefix.",
    });
  }
  if (grants.lake === 'catalog') {
    const reason =
      "Tenants' Glue databases are created at run time, one per tenant; the wildcard is limited to the stage's lake prefix and to CreateDatabase/CreateTable/UpdateTable.";
    const prefix = lakePrefix ?? 'gatehouse_lake';
    Validations.of(scope).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>:database/${prefix}_*]`,
        reason,
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>:table/${prefix}_*/*]`,
        reason,
      },
    );
  }
  if (grants.ai) {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/*]',
      reason:
        'The model id is configuration (BEDROCK_MODEL_ID) and a global inference profile routes to the model in any region.',
    });
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*:<AWS::AccountId>:inference-profile/*]',
      reason: 'The inference profile is configuration (BEDROCK_MODEL_ID); only bedrock:InvokeModel is allowed on it.',
    });
  }
}

/** Whether the grants use the audit key: to seal the audit entries it writes, or to check seals. */
export function usesAuditKey(grants: RouteGrants): boolean {
  return grants.audit !== undefined;
}
