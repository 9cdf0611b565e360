/**
 * The data lake's AWS engine (shared/adapters/lake/athena.ts) against mocked STS and Athena (no
 * local counterpart): the query runs in the caller's tenant's Glue database, in the workgroup,
 * with credentials whose session policy names only that tenant's database and prefixes; results
 * are bounded by max_rows; a failed query is a LakeSqlError (422) unless Athena itself failed; a
 * query past the time bound is stopped.
 */
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AthenaLakeEngine, tenantSessionPolicy, type AthenaLakeSettings } from '../../shared/adapters/lake/athena.js';
import {
  AlreadyExistsException,
  CreateDatabaseCommand,
  CreateTableCommand,
  GlueClient,
  UpdateTableCommand,
} from '@aws-sdk/client-glue';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  GlueLakeCatalog,
  glueTableInput,
  glueViewInput,
  tenantDatabase as catalogDatabase,
  viewSql,
} from '../../shared/adapters/lake/catalog.js';
import { LakeSqlError } from '../../shared/adapters/lake/types.js';
import { LAKE_TABLES, tenantDatabaseName } from '../../shared/vocabulary/data-lake.js';

const tenantDatabase = (tenant: string) => tenantDatabaseName('gatehouse_test_lake', tenant);

const A = '0190a1b2-0000-7000-8000-00000000000a';
const B = '0190a1b2-0000-7000-8000-00000000000b';
const settings: AthenaLakeSettings = {
  region: 'eu-west-1',
  partition: 'aws',
  accountId: '123456789012',
  bucket: 'files-bucket',
  workgroup: 'gatehouse-lake-test',
  queryRoleArn: 'arn:aws:iam::123456789012:role/lake-query',
  databasePrefix: 'gatehouse_test_lake',
};

const sts = mockClient(STSClient);
const athena = mockClient(AthenaClient);
// The stubs are on the SDK's client classes, which the next file of this worker shares (fresh-file.ts).
afterAll(() => {
  sts.restore();
  athena.restore();
});
let clock = 0;
const credentialsSeen: unknown[] = [];

function engine() {
  return new AthenaLakeEngine(settings, {
    sts: new STSClient({ region: 'eu-west-1' }),
    athena: (credentials) => {
      credentialsSeen.push(credentials);
      return new AthenaClient({ region: 'eu-west-1', credentials });
    },
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
  });
}

const header = (names: string[]) => ({ Data: names.map((n) => ({ VarCharValue: n })) });
const row = (values: (string | undefined)[]) => ({
  Data: values.map((v) => (v === undefined ? {} : { VarCharValue: v })),
});

beforeEach(() => {
  sts.reset();
  athena.reset();
  clock = 0;
  credentialsSeen.length = 0;
  sts.on(AssumeRoleCommand).resolves({
    Credentials: { AccessKeyId: 'AK', SecretAccessKey: 'SK', SessionToken: 'TOKEN', Expiration: new Date() },
  });
  athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
});

describe('the Athena engine', () => {
  it("runs in the tenant's database and workgroup with a session policy naming only the tenant", async () => {
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce({ QueryExecution: { Status: { State: 'RUNNING' } } })
      .resolves({
        QueryExecution: {
          Status: { State: 'SUCCEEDED' },
          SubstatementType: 'SELECT',
          Statistics: { DataScannedInBytes: 1234 },
        },
      });
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: {
        ResultSetMetadata: {
          ColumnInfo: [
            { Name: 'n', Type: 'bigint' },
            { Name: 'type', Type: 'varchar' },
            { Name: 'ok', Type: 'boolean' },
          ],
        },
        Rows: [header(['n', 'type', 'ok']), row(['42', 'motion.detected', 'true']), row(['7', undefined, 'false'])],
      },
    });
    const answer = await engine().query({
      tenantId: A,
      sql: 'SELECT count(*) AS n, type, true FROM events GROUP BY type',
      maxRows: 100,
    });
    expect(answer).toEqual({
      columns: [
        { name: 'n', type: 'bigint' },
        { name: 'type', type: 'varchar' },
        { name: 'ok', type: 'boolean' },
      ],
      rows: [
        [42, 'motion.detected', true],
        [7, null, false],
      ],
      truncated: false,
      bytes_scanned: 1234,
      engine: 'athena',
    });

    const start = athena.commandCalls(StartQueryExecutionCommand)[0]!.args[0].input;
    expect(start.WorkGroup).toBe('gatehouse-lake-test');
    expect(start.QueryExecutionContext).toEqual({ Catalog: 'AwsDataCatalog', Database: tenantDatabase(A) });
    expect(start.QueryString).toBe('SELECT count(*) AS n, type, true FROM events GROUP BY type');
    // Athena is called with the assumed session's credentials, not the function's.
    expect(credentialsSeen).toEqual([{ accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'TOKEN' }]);

    const assume = sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input;
    expect(assume.RoleArn).toBe(settings.queryRoleArn);
    const policy = JSON.parse(assume.Policy!);
    expect(policy).toEqual(tenantSessionPolicy(settings, A));
    const text = JSON.stringify(policy);
    expect(text).not.toContain(B);
    expect(text).not.toContain(B.replace(/-/g, ''));
    // S3 reads: the tenant's prefixes only; Glue: its database only; no write to the lake, no DDL.
    const files = policy.Statement.find((s: { Sid: string }) => s.Sid === 'TenantFiles');
    expect(files.Resource).toEqual(LAKE_TABLES.map((t) => `arn:aws:s3:::files-bucket/lake/${t.name}/tenant_id=${A}/*`));
    const catalog = policy.Statement.find((s: { Sid: string }) => s.Sid === 'TenantCatalog');
    expect(catalog.Resource).toContain(`arn:aws:glue:eu-west-1:123456789012:database/${tenantDatabase(A)}`);
    expect(catalog.Action.every((a: string) => a.startsWith('glue:Get'))).toBe(true);
    const writes = policy.Statement.filter((s: { Action: string[] }) => [s.Action].flat().includes('s3:PutObject'));
    expect(
      writes.flatMap((s: { Resource: string[] }) => [s.Resource].flat()).filter((r: string) => r.includes('/')),
    ).toEqual(['arn:aws:s3:::files-bucket/lake-results/*']);
  });

  it('returns at most max_rows rows and says it truncated', async () => {
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: { State: 'SUCCEEDED' },
        SubstatementType: 'SELECT',
        Statistics: { DataScannedInBytes: 10 },
      },
    });
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: [{ Name: 'x', Type: 'integer' }] },
        Rows: [header(['x']), row(['1']), row(['2']), row(['3'])],
      },
    });
    const answer = await engine().query({ tenantId: A, sql: 'SELECT x FROM events', maxRows: 2 });
    expect(answer.rows).toEqual([[1], [2]]);
    expect(answer.truncated).toBe(true);
  });

  it("is a LakeSqlError when the SQL fails, e.g. another tenant's database refused by Glue", async () => {
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: {
          State: 'FAILED',
          StateChangeReason: `Insufficient permissions to execute the query. User is not authorized to perform glue:GetTable on ${tenantDatabase(B)}`,
          AthenaError: { ErrorCategory: 2 },
        },
      },
    });
    const refused = engine().query({ tenantId: A, sql: `SELECT * FROM ${tenantDatabase(B)}.events`, maxRows: 10 });
    await expect(refused).rejects.toBeInstanceOf(LakeSqlError);
    await expect(engine().query({ tenantId: A, sql: 'x', maxRows: 1 })).rejects.toThrow(/not authorized/);
  });

  it('is a plain error (a 5xx) when Athena itself failed', async () => {
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: { State: 'FAILED', StateChangeReason: 'internal', AthenaError: { ErrorCategory: 1 } },
      },
    });
    const failed = engine().query({ tenantId: A, sql: 'SELECT 1', maxRows: 1 });
    await expect(failed).rejects.toThrow(/Athena failed/);
    await expect(failed).rejects.not.toBeInstanceOf(LakeSqlError);
  });

  it('stops a query that runs past the time bound', async () => {
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    athena.on(StopQueryExecutionCommand).resolves({});
    await expect(engine().query({ tenantId: A, sql: 'SELECT 1', maxRows: 1 })).rejects.toThrow(/ran longer than 20 s/);
    expect(athena.commandCalls(StopQueryExecutionCommand)[0]!.args[0].input).toEqual({ QueryExecutionId: 'q-1' });
  });

  it('refuses a statement that is not a SELECT', async () => {
    athena
      .on(GetQueryExecutionCommand)
      .resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' }, SubstatementType: 'CREATE_TABLE_AS_SELECT' } });
    await expect(engine().query({ tenantId: A, sql: 'CREATE TABLE x AS SELECT 1', maxRows: 1 })).rejects.toBeInstanceOf(
      LakeSqlError,
    );
  });
});

describe('the Glue catalog of a tenant', () => {
  it("locates every table's files at the tenant's prefix only, partitioned by day through projection", () => {
    for (const table of LAKE_TABLES) {
      const input = glueTableInput(table, A, 'files-bucket');
      expect(input.Name).toBe(`${table.name}_files`);
      expect(input.StorageDescriptor.Location).toBe(`s3://files-bucket/lake/${table.name}/tenant_id=${A}/`);
      expect(input.Parameters['storage.location.template']).toBe(
        `s3://files-bucket/lake/${table.name}/tenant_id=${A}/dt=\${dt}/`,
      );
      expect(input.StorageDescriptor.Columns.map((c) => c.Name)).toEqual(table.columns.map((c) => c.name));
    }
  });
});

describe('the views that keep one row per record', () => {
  it('are Athena views (VIRTUAL_VIEW, the Presto definition in base64) of the table name, over its files, with its columns', () => {
    for (const table of LAKE_TABLES) {
      const input = glueViewInput(table, tenantDatabase(A));
      expect(input).toMatchObject({
        Name: table.name,
        TableType: 'VIRTUAL_VIEW',
        Parameters: { presto_view: 'true' },
        ViewExpandedText: '/* Presto View */',
      });
      const encoded = /^\/\* Presto View: ([A-Za-z0-9+/=]+) \*\/$/.exec(input.ViewOriginalText!)![1]!;
      const definition = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
      expect(definition).toEqual({
        originalSql: viewSql(table),
        catalog: 'awsdatacatalog',
        schema: tenantDatabase(A),
        columns: table.columns.map((c) => ({ name: c.name, type: c.type === 'string' ? 'varchar' : c.type })),
      });
      expect(definition.originalSql).toContain(`FROM "${table.name}_files"`);
      expect(input.StorageDescriptor!.Columns!.map((c) => c.Name)).toEqual(table.columns.map((c) => c.name));
    }
  });

  it("count a record exported twice once, and answer its latest version (the view's SQL run by a real engine)", async () => {
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const events = LAKE_TABLES.find((t) => t.name === 'events')!;
    const types: Record<string, string> = {
      string: 'VARCHAR',
      double: 'DOUBLE',
      bigint: 'BIGINT',
      boolean: 'BOOLEAN',
      timestamp: 'TIMESTAMP',
    };
    await db.run(
      `CREATE TABLE events_files (${events.columns.map((c) => `"${c.name}" ${types[c.type]}`).join(', ')}, dt VARCHAR)`,
    );
    const row = (id: string, received: string, description: string) =>
      db.run(
        `INSERT INTO events_files (event_id, tenant_id, type, occurred_at, received_at, description, dt) VALUES ('${id}', '${A}', 'motion.detected', TIMESTAMP '2026-11-01 10:00:00', TIMESTAMP '${received}', '${description}', '2026-11-01')`,
      );
    await row('e1', '2026-11-01 10:00:01', 'first');
    await row('e1', '2026-11-01 10:00:01', 'first'); // the same message in two batches
    await row('e2', '2026-11-01 10:00:02', 'older');
    await row('e2', '2026-11-01 10:05:00', 'newer');
    const reader = await db.runAndReadAll(`SELECT event_id, description FROM (${viewSql(events)}) ORDER BY event_id`);
    expect(reader.getRows()).toEqual([
      ['e1', 'first'],
      ['e2', 'newer'],
    ]);
    db.closeSync();
  });

  it('are made once per tenant, and replace what stood under their name', async () => {
    const glue = mockClient(GlueClient);
    glue.on(CreateDatabaseCommand).rejects(new AlreadyExistsException({ message: 'exists', $metadata: {} }));
    glue.on(CreateTableCommand).rejects(new AlreadyExistsException({ message: 'exists', $metadata: {} }));
    glue.on(UpdateTableCommand).resolves({});
    const catalog = new GlueLakeCatalog(new GlueClient({ region: 'eu-west-1' }), 'files-bucket');
    await catalog.ensureTenant(A);
    await catalog.ensureTenant(A);
    const updated = glue.commandCalls(UpdateTableCommand).map((c) => c.args[0].input);
    expect(updated.map((u) => u.TableInput?.Name).sort()).toEqual(LAKE_TABLES.map((t) => t.name).sort());
    expect(
      updated.every((u) => u.DatabaseName === catalogDatabase(A) && u.TableInput?.TableType === 'VIRTUAL_VIEW'),
    ).toBe(true);
    expect(glue.commandCalls(CreateTableCommand)).toHaveLength(2 * LAKE_TABLES.length);
    glue.restore();
  });
});
