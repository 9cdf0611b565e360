/**
 * The lake's catalog in AWS: one Glue database per tenant (`<prefix>_<tenant id without dashes>`)
 * with one table per lake table, each located at that tenant's prefix only and partitioned by
 * `dt` through partition projection (no crawler, no MSCK REPAIR). Athena queries of a tenant run
 * in its database with credentials that may read only its database and its prefix
 * (shared/adapters/lake/athena.ts), so the catalog and S3 both refuse the other tenants' data.
 *
 * Created by the export worker the first time it writes for a tenant in a container (creating
 * what exists already is a no-op). Under `npm start` there is no Glue: the local engine reads the
 * files themselves (shared/local/lake-duckdb.ts) and the catalog is a no-op.
 */
import { AlreadyExistsException, CreateDatabaseCommand, CreateTableCommand, GlueClient } from '@aws-sdk/client-glue';
import { config } from '../../config.js';
import { LAKE_TABLES, tenantDatabaseName, tenantTablePrefix, type LakeColumnType, type LakeTable } from '../../vocabulary/data-lake.js';

export interface LakeCatalog {
  ensureTenant(tenantId: string): Promise<void>;
}

/** The Glue/Athena name of a tenant's database. */
export const tenantDatabase = (tenantId: string) => tenantDatabaseName(config.lake.databasePrefix, tenantId);

const GLUE_TYPE: Record<LakeColumnType, string> = { string: 'string', double: 'double', bigint: 'bigint', boolean: 'boolean', timestamp: 'timestamp' };

/** The Glue table input of one lake table of one tenant. */
export function glueTableInput(table: LakeTable, tenantId: string, bucket: string) {
  const location = `s3://${bucket}/${tenantTablePrefix(table.name, tenantId)}`;
  return {
    Name: table.name,
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
      Columns: table.columns.map((c) => ({ Name: c.name, Type: GLUE_TYPE[c.type], Comment: c.description.slice(0, 255) })),
      Location: location,
      InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
      OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
      SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
    },
  };
}

export class GlueLakeCatalog implements LakeCatalog {
  private readonly known = new Set<string>();
  constructor(private readonly glue: Pick<GlueClient, 'send'>, private readonly bucket: string) {}

  async ensureTenant(tenantId: string): Promise<void> {
    if (this.known.has(tenantId)) return;
    const database = tenantDatabase(tenantId);
    await ignoreExisting(this.glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: database, Description: `Gatehouse data lake of tenant ${tenantId}` } })));
    await Promise.all(
      LAKE_TABLES.map((table) => ignoreExisting(this.glue.send(new CreateTableCommand({ DatabaseName: database, TableInput: glueTableInput(table, tenantId, this.bucket) })))),
    );
    this.known.add(tenantId);
  }
}

async function ignoreExisting(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    if (err instanceof AlreadyExistsException || (err as { name?: string }).name === 'AlreadyExistsException') return;
    throw err;
  }
}

let installed: LakeCatalog | undefined;

/** Where the program is composed: the catalog to use instead of Glue (a no-op locally). */
export function useLakeCatalog(catalog: LakeCatalog): void {
  installed = catalog;
}

export function lakeCatalog(): LakeCatalog {
  installed ??= new GlueLakeCatalog(new GlueClient({ region: config.region }), config.bucketName);
  return installed;
}
