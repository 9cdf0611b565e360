/**
 * The data lake's engine in AWS: Athena, in the deployment's workgroup (its configuration,
 * enforced, fixes the result location and stops any query past the bytes-scanned cutoff), in the
 * caller's tenant's Glue database (shared/adapters/lake/catalog.ts), with credentials of the lake
 * query role assumed for this query with a session policy that names only that tenant: its
 * database and tables in Glue, its prefixes in S3, the results prefix. SQL naming another tenant's
 * database or location is refused by Glue or S3 (the session's permissions are the intersection of
 * the role's and the session policy's), not by reading the SQL. DDL and writes to the lake fail
 * the same way (no glue:Create*, no s3:PutObject outside the results).
 *
 * The route waits for the query, polling, up to LAKE_BOUNDS.timeoutMs (under its Lambda's 30 s);
 * past that the query is stopped and the answer is 422.
 */
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { config } from '../../config.js';
import { tracedClient } from '../../tracing.js';
import { LAKE_RESULTS_PREFIX, LAKE_TABLES, tenantDatabaseName, tenantTablePrefix } from '../../vocabulary/data-lake.js';
import { LAKE_BOUNDS, LakeSqlError, type LakeAnswer, type LakeEngine, type LakeQuery } from './types.js';

export { LAKE_RESULTS_PREFIX } from '../../vocabulary/data-lake.js';

export interface AthenaLakeSettings {
  region: string;
  partition: string;
  accountId?: string;
  bucket: string;
  workgroup: string;
  queryRoleArn: string;
  /** Tenants' Glue databases are `<prefix>_<tenant>`. */
  databasePrefix: string;
}

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken: string };

export interface AthenaLakeDeps {
  sts: Pick<STSClient, 'send'>;
  athena: (credentials: Credentials) => Pick<AthenaClient, 'send'>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The session policy of one tenant's query: the only things its SQL can reach. */
export function tenantSessionPolicy(settings: AthenaLakeSettings, tenantId: string): Record<string, unknown> {
  const { partition, region, bucket } = settings;
  const account = settings.accountId ?? '*';
  const database = tenantDatabaseName(settings.databasePrefix, tenantId);
  const prefixes = LAKE_TABLES.map((t) => tenantTablePrefix(t.name, tenantId));
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'Workgroup',
        Effect: 'Allow',
        Action: [
          'athena:StartQueryExecution',
          'athena:GetQueryExecution',
          'athena:GetQueryResults',
          'athena:StopQueryExecution',
        ],
        Resource: `arn:${partition}:athena:${region}:${account}:workgroup/${settings.workgroup}`,
      },
      {
        Sid: 'TenantCatalog',
        Effect: 'Allow',
        Action: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetTables', 'glue:GetPartition', 'glue:GetPartitions'],
        Resource: [
          `arn:${partition}:glue:${region}:${account}:catalog`,
          `arn:${partition}:glue:${region}:${account}:database/${database}`,
          `arn:${partition}:glue:${region}:${account}:table/${database}/*`,
        ],
      },
      {
        Sid: 'TenantFiles',
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: prefixes.map((p) => `arn:${partition}:s3:::${bucket}/${p}*`),
      },
      {
        Sid: 'TenantListing',
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: `arn:${partition}:s3:::${bucket}`,
        Condition: { StringLike: { 's3:prefix': [...prefixes.map((p) => `${p}*`), `${LAKE_RESULTS_PREFIX}*`] } },
      },
      {
        Sid: 'Results',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:GetBucketLocation'],
        Resource: [`arn:${partition}:s3:::${bucket}/${LAKE_RESULTS_PREFIX}*`, `arn:${partition}:s3:::${bucket}`],
      },
    ],
  };
}

const NUMERIC = new Set(['tinyint', 'smallint', 'integer', 'int', 'bigint', 'double', 'float', 'real', 'decimal']);

function valueOf(text: string | undefined, type: string): unknown {
  if (text === undefined) return null;
  if (NUMERIC.has(type)) {
    const n = Number(text);
    return Number.isFinite(n) && (!/int/.test(type) || Number.isSafeInteger(n)) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  return text;
}

export class AthenaLakeEngine implements LakeEngine {
  constructor(
    private readonly settings: AthenaLakeSettings,
    private readonly deps: AthenaLakeDeps,
  ) {}

  async query({ tenantId, sql, maxRows }: LakeQuery): Promise<LakeAnswer> {
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const now = this.deps.now ?? Date.now;
    const deadline = now() + LAKE_BOUNDS.timeoutMs;
    const assumed = await this.deps.sts.send(
      new AssumeRoleCommand({
        RoleArn: this.settings.queryRoleArn,
        RoleSessionName: `lake-${tenantId}`.slice(0, 64),
        DurationSeconds: 900,
        Policy: JSON.stringify(tenantSessionPolicy(this.settings, tenantId)),
      }),
    );
    const c = assumed.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken)
      throw new Error('AssumeRole of the lake query role gave no credentials');
    const athena = this.deps.athena({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    });

    const started = await athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: this.settings.workgroup,
        QueryExecutionContext: {
          Catalog: 'AwsDataCatalog',
          Database: tenantDatabaseName(this.settings.databasePrefix, tenantId),
        },
      }),
    );
    const id = started.QueryExecutionId;
    if (!id) throw new Error('Athena started no query');
    let execution: QueryExecution | undefined;
    for (let wait = 200; ; wait = Math.min(wait * 2, 1000)) {
      execution = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution;
      const state = execution?.Status?.State;
      if (state === 'SUCCEEDED') break;
      if (state === 'FAILED' || state === 'CANCELLED') {
        const reason = execution?.Status?.StateChangeReason ?? 'the query failed';
        // Category 1 is Athena's own fault: a real 5xx, not the SQL's.
        if (execution?.Status?.AthenaError?.ErrorCategory === 1) throw new Error(`Athena failed: ${reason}`);
        throw new LakeSqlError(reason);
      }
      if (now() + wait > deadline) {
        await athena.send(new StopQueryExecutionCommand({ QueryExecutionId: id }));
        throw new LakeSqlError(`the query ran longer than ${LAKE_BOUNDS.timeoutMs / 1000} s and was stopped`);
      }
      await sleep(wait);
    }
    if (execution?.SubstatementType && execution.SubstatementType.toUpperCase() !== 'SELECT') {
      throw new LakeSqlError('only a SELECT may run: the lake is read-only');
    }

    let columns: LakeAnswer['columns'] = [];
    const rows: unknown[][] = [];
    let token: string | undefined;
    let first = true;
    let more = false;
    do {
      const page = await athena.send(
        new GetQueryResultsCommand({ QueryExecutionId: id, NextToken: token, MaxResults: Math.min(1000, maxRows + 2) }),
      );
      if (first)
        columns = (page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((ci) => ({
          name: ci.Name ?? '',
          type: ci.Type ?? 'varchar',
        }));
      // The first row of a SELECT's results is its header.
      const data = (page.ResultSet?.Rows ?? []).slice(first ? 1 : 0);
      first = false;
      for (const row of data) {
        if (rows.length === maxRows) {
          more = true;
          break;
        }
        rows.push((row.Data ?? []).map((datum, i) => valueOf(datum.VarCharValue, columns[i]?.type ?? 'varchar')));
      }
      token = page.NextToken;
    } while (token && !more);
    return {
      columns,
      rows,
      truncated: more || Boolean(token),
      bytes_scanned: execution?.Statistics?.DataScannedInBytes ?? 0,
      engine: 'athena',
    };
  }
}

/** The engine of the deployment's settings. */
export function athenaLakeEngine(): AthenaLakeEngine {
  if (!config.lake.queryRoleArn) throw new Error('LAKE_QUERY_ROLE_ARN is not set: the data lake cannot be queried');
  const region = config.region;
  return new AthenaLakeEngine(
    {
      region,
      partition: region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws',
      accountId: config.lake.queryRoleArn.split(':')[4] || undefined,
      bucket: config.bucketName,
      workgroup: config.lake.workgroup,
      queryRoleArn: config.lake.queryRoleArn,
      databasePrefix: config.lake.databasePrefix,
    },
    {
      sts: tracedClient(new STSClient({ region })),
      athena: (credentials) => tracedClient(new AthenaClient({ region, credentials })),
    },
  );
}
