/**
 * The data lake's local engine (docs/data-lake.md): DuckDB (@duckdb/node-api, a native module
 * that never enters a Lambda bundle: only the local runtime imports this folder) over one
 * tenant's Parquet files, read from the local S3.
 *
 * Per query: the tenant's files (and no one else's) are fetched into a private temporary
 * directory and loaded into a fresh database file there, one table per lake table, each record
 * once (the latest version of its key); the files are deleted, and the database is opened again
 * READ_ONLY with external access off (no file, no URL, no ATTACH, no extension), extensions not
 * loadable, one memory limit, and the configuration locked, so no statement can change any of it.
 * The statement must be a single SELECT (DuckDB's own parser says so), runs under a timeout
 * (interrupted), and at most `maxRows` rows are read.
 */
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { config } from '../config.js';
import { LAKE_BOUNDS, LakeSqlError, type LakeAnswer, type LakeEngine, type LakeQuery } from '../adapters/lake/types.js';
import { LAKE_TABLES, tenantTablePrefix, type LakeColumnType } from '../vocabulary/data-lake.js';

const DUCK_TYPE: Record<LakeColumnType, string> = {
  string: 'VARCHAR',
  double: 'DOUBLE',
  bigint: 'BIGINT',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
};

/** The settings of the database a query runs in: nothing outside it, nothing written, locked. */
const LOCKED = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  threads: String(LAKE_BOUNDS.threads),
  memory_limit: LAKE_BOUNDS.memoryLimit,
  lock_configuration: 'true',
};

/**
 * The engine's own client of the local S3, as Athena reads S3 with its own session in AWS: not
 * the route's (the query route is granted no bucket access), and it reads the tenant's prefixes only.
 */
let client: S3Client | undefined;
function engineS3(): S3Client {
  client ??= new S3Client({
    region: config.region,
    endpoint: config.endpoints.s3,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return client;
}

async function getObjectBytes(key: string): Promise<Uint8Array> {
  const out = await engineS3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
  return out.Body!.transformToByteArray();
}

async function keysUnder(prefix: string): Promise<{ key: string; size: number }[]> {
  const keys: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await engineS3().send(
      new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key?.endsWith('.parquet')) keys.push({ key: o.Key, size: o.Size ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Builds the tenant's database file in `dir`; returns the bytes of Parquet it was given. */
async function buildTenantDatabase(dir: string, tenantId: string): Promise<{ path: string; bytes: number }> {
  const path = join(dir, 'lake.duckdb');
  const files = await Promise.all(
    LAKE_TABLES.map(async (table) => ({ table, keys: await keysUnder(tenantTablePrefix(table.name, tenantId)) })),
  );
  const bytes = files.reduce((n, f) => n + f.keys.reduce((m, k) => m + k.size, 0), 0);
  if (bytes > LAKE_BOUNDS.maxBytesScanned) {
    throw new LakeSqlError(
      `the tenant's lake holds ${bytes} bytes, more than the ${LAKE_BOUNDS.maxBytesScanned} a query may scan`,
    );
  }
  const writer = await DuckDBInstance.create(path, {
    threads: String(LAKE_BOUNDS.threads),
    memory_limit: LAKE_BOUNDS.memoryLimit,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await writer.connect();
  try {
    for (const { table, keys } of files) {
      const columns = table.columns.map((c) => `"${c.name}" ${DUCK_TYPE[c.type]}`).join(', ');
      await connection.run(`CREATE TABLE "${table.name}" (${columns})`);
      if (keys.length === 0) continue;
      const local = await Promise.all(
        keys.map(async ({ key }, i) => {
          const file = join(dir, `${table.name}-${i}.parquet`);
          await writeFile(file, await getObjectBytes(key), { mode: 0o600 });
          return file;
        }),
      );
      const names = table.columns.map((c) => `"${c.name}"`).join(', ');
      const list = local.map(quote).join(', ');
      // One row per record: a record exported twice (a message delivered again in another batch) counts once.
      await connection.run(
        `INSERT INTO "${table.name}" SELECT ${names} FROM read_parquet([${list}], union_by_name = true) ` +
          `QUALIFY row_number() OVER (PARTITION BY "${table.key}" ORDER BY "${table.versionColumn}" DESC NULLS LAST) = 1`,
      );
      await Promise.all(local.map((f) => rm(f, { force: true })));
    }
    await connection.run('CHECKPOINT');
  } finally {
    connection.closeSync();
    writer.closeSync();
  }
  return { path, bytes };
}

const INTEGER_TYPES = new Set([
  'BIGINT',
  'HUGEINT',
  'UBIGINT',
  'UHUGEINT',
  'INTEGER',
  'SMALLINT',
  'TINYINT',
  'UINTEGER',
  'USMALLINT',
  'UTINYINT',
]);

/** Integers as JSON numbers where exact (DuckDB's JSON gives big ones as text). */
function jsonValue(value: unknown, type: string): unknown {
  if (INTEGER_TYPES.has(type) && typeof value === 'string' && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

async function runBounded(
  connection: DuckDBConnection,
  sql: string,
  maxRows: number,
): Promise<Omit<LakeAnswer, 'bytes_scanned' | 'engine'>> {
  let extracted;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (err) {
    throw new LakeSqlError((err as Error).message);
  }
  if (extracted.count !== 1) throw new LakeSqlError(`send exactly one statement (this SQL has ${extracted.count})`);
  let prepared;
  try {
    prepared = await extracted.prepare(0);
  } catch (err) {
    throw new LakeSqlError((err as Error).message);
  }
  if (prepared.statementType !== StatementType.SELECT)
    throw new LakeSqlError('only a SELECT (or WITH ... SELECT) may run: the lake is read-only');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, LAKE_BOUNDS.timeoutMs);
  try {
    const reader = await prepared.streamAndReadUntil(maxRows + 1);
    const types = reader.columnTypes().map((t) => t.toString());
    const all = reader.getRowsJson();
    return {
      columns: reader.columnNames().map((name, i) => ({ name, type: types[i]! })),
      rows: all.slice(0, maxRows).map((row) => row.map((v, i) => jsonValue(v, types[i]!))),
      truncated: all.length > maxRows || !reader.done,
    };
  } catch (err) {
    if (timedOut)
      throw new LakeSqlError(`the query ran longer than ${LAKE_BOUNDS.timeoutMs / 1000} s and was interrupted`);
    throw new LakeSqlError((err as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

export class DuckDbLakeEngine implements LakeEngine {
  async query({ tenantId, sql, maxRows }: LakeQuery): Promise<LakeAnswer> {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-lake-'));
    try {
      const { path, bytes } = await buildTenantDatabase(dir, tenantId);
      const instance = await DuckDBInstance.create(path, LOCKED);
      const connection = await instance.connect();
      try {
        return { ...(await runBounded(connection, sql, maxRows)), bytes_scanned: bytes, engine: 'duckdb' };
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
