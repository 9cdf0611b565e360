/**
 * The lake's catalog in AWS: one Glue database per tenant (`<prefix>_<tenant id without dashes>`)
 * with, per lake table, an external Parquet table of its files (`<table>_files`, located at that
 * tenant's prefix only and partitioned by `dt` through partition projection: no crawler, no MSCK
 * REPAIR) and a view named after the table that keeps one row per record (the greatest version of
 * its key), so Athena counts a record once however often it was exported, as the local engine
 * does. Athena queries of a tenant run in its database with credentials that may read only its
 * database and its prefix (shared/adapters/lake/athena.ts), so the catalog and S3 both refuse the
 * other tenants' data.
 *
 * Created by the export worker (and a connector's poll) the first time it writes for a tenant in
 * a container: creating what exists is a no-op, and a view that exists is replaced (a table of
 * the same name from before the views were made becomes the view). Under `npm start` there is no
 * Glue: the local engine reads the files themselves (shared/local/lake-duckdb.ts) and the catalog
 * is a no-op.
 */
import {
  AlreadyExistsException,
  CreateDatabaseCommand,
  CreateTableCommand,
  GlueClient,
  UpdateTableCommand,
  type TableInput,
} from '@aws-sdk/client-glue';
import { config } from '../../config.js';
import {
  LAKE_TABLES,
  tenantDatabaseName,
  tenantTablePrefix,
  type LakeColumnType,
  type LakeTable,
} from '../../vocabulary/data-lake.js';
import { portOf, setPort } from '../../runtime-ports.js';
import { tracedClient } from '../../tracing.js';

export interface LakeCatalog {
  ensureTenant(tenantId: string): Promise<void>;
}

/** The Glue/Athena name of a tenant's database. */
export const tenantDatabase = (tenantId: string) => tenantDatabaseName(config.lake.databasePrefix, tenantId);

const GLUE_TYPE: Record<LakeColumnType, string> = {
  string: 'string',
  double: 'double',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamp: 'timestamp',
};
/** The same types as Athena's engine (Trino) names them in a view's definition. */
const PRESTO_TYPE: Record<LakeColumnType, string> = {
  string: 'varchar',
  double: 'double',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamp: 'timestamp',
};

/** The table of a lake table's files; queries read the view of the table's own name. */
export const filesTableName = (table: LakeTable) => `${table.name}_files`;

/** The Glue table input of the files of one lake table of one tenant. */
export function glueTableInput(table: LakeTable, tenantId: string, bucket: string) {
  const location = `s3://${bucket}/${tenantTablePrefix(table.name, tenantId)}`;
  return {
    Name: filesTableName(table),
    Description: table.description,
    TableType: 'EXTERNAL_TABLE',
    PartitionKeys: [{ Name: 'dt', Type: 'string' }],
    Parameters: {
      classification: 'parquet',
      'projection.enabled': 'true',
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
      'projection.dt.range': '2020-01-01,NOW',
      'projection.dt.interval': '1',
      'projection.dt.interval.unit': 'DAYS',
      'storage.location.template': `${location}dt=\${dt}/`,
    },
    StorageDescriptor: {
      Columns: table.columns.map((c) => ({
        Name: c.name,
        Type: GLUE_TYPE[c.type],
        Comment: c.description.slice(0, 255),
      })),
      Location: location,
      InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
      OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
      SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
    },
  };
}

/** The SQL of a lake table's view: one row per record, the greatest version of its key. */
export function viewSql(table: LakeTable): string {
  const columns = table.columns.map((c) => `"${c.name}"`).join(', ');
  return (
    `SELECT ${columns} FROM (SELECT *, row_number() OVER (PARTITION BY "${table.key}" ORDER BY "${table.versionColumn}" DESC NULLS LAST) AS "gatehouse_version_rank" ` +
    `FROM "${filesTableName(table)}") WHERE "gatehouse_version_rank" = 1`
  );
}

/**
 * The Glue table input of a lake table's view, in the form Athena writes for `CREATE VIEW`: a
 * `VIRTUAL_VIEW` whose original text carries the view (SQL, catalog, schema, columns) as base64
 * JSON between `Presto View` markers.
 */
export function glueViewInput(table: LakeTable, database: string): TableInput {
  const definition = {
    originalSql: viewSql(table),
    catalog: 'awsdatacatalog',
    schema: database,
    columns: table.columns.map((c) => ({ name: c.name, type: PRESTO_TYPE[c.type] })),
  };
  return {
    Name: table.name,
    Description: table.description,
    TableType: 'VIRTUAL_VIEW',
    Parameters: { presto_view: 'true', comment: 'Presto View' },
    ViewOriginalText: `/* Presto View: ${Buffer.from(JSON.stringify(definition)).toString('base64')} */`,
    ViewExpandedText: '/* Presto View */',
    StorageDescriptor: {
      Columns: table.columns.map((c) => ({
        Name: c.name,
        Type: GLUE_TYPE[c.type],
        Comment: c.description.slice(0, 255),
      })),
      SerdeInfo: {},
    },
  };
}

export class GlueLakeCatalog implements LakeCatalog {
  private readonly known = new Set<string>();
  constructor(
    private readonly glue: Pick<GlueClient, 'send'>,
    private readonly bucket: string,
  ) {}

  async ensureTenant(tenantId: string): Promise<void> {
    if (this.known.has(tenantId)) return;
    const database = tenantDatabase(tenantId);
    await ignoreExisting(
      this.glue.send(
        new CreateDatabaseCommand({
          DatabaseInput: { Name: database, Description: `Gatehouse data lake of tenant ${tenantId}` },
        }),
      ),
    );
    await Promise.all(
      LAKE_TABLES.map(async (table) => {
        await ignoreExisting(
          this.glue.send(
            new CreateTableCommand({
              DatabaseName: database,
              TableInput: glueTableInput(table, tenantId, this.bucket),
            }),
          ),
        );
        const view = glueViewInput(table, database);
        try {
          await this.glue.send(new CreateTableCommand({ DatabaseName: database, TableInput: view }));
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          // Replaced: its definition may be older than this code (or be the files' table of before the views).
          await this.glue.send(new UpdateTableCommand({ DatabaseName: database, TableInput: view }));
        }
      }),
    );
    this.known.add(tenantId);
  }
}

const isAlreadyExists = (err: unknown) =>
  err instanceof AlreadyExistsException || (err as { name?: string }).name === 'AlreadyExistsException';

async function ignoreExisting(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

let glue: LakeCatalog | undefined;

/** Where the program is composed: the catalog to use instead of Glue (a no-op locally; shared/runtime-ports.ts). */
export function useLakeCatalog(catalog: LakeCatalog): void {
  setPort('lakeCatalog', catalog);
}

export function lakeCatalog(): LakeCatalog {
  return (
    portOf<LakeCatalog>('lakeCatalog') ??
    (glue ??= new GlueLakeCatalog(tracedClient(new GlueClient({ region: config.region })), config.bucketName))
  );
}
