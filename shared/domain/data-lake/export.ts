/**
 * The data lake's export (docs/data-lake.md): a batch of bus messages becomes Parquet files, one
 * per table, tenant and day, at keys fixed by the rows' ids (a retried batch rewrites the same
 * files), and each tenant written to has its catalog entry (Glue in AWS). A message whose file
 * could not be written is returned as failed, to be delivered again; the others are done.
 *
 * Ports only: no SDK or Lambda types here.
 */
import { createHash } from 'node:crypto';
import {
  lakeFilesOf,
  lakeRecordsOf,
  lakeTable,
  type LakeMessage,
  type LakeRow,
  type LakeTable,
  type LakeTableName,
} from './tables.js';

export interface LakeExportDeps {
  /** Stores one file's bytes at `key` (overwriting). */
  putFile(key: string, bytes: Uint8Array): Promise<void>;
  /** Encodes rows as Parquet. */
  encode(table: LakeTable, rows: readonly LakeRow[]): Uint8Array;
  /** Makes sure the tenant's catalog (database and tables) exists; idempotent. */
  ensureCatalog(tenantId: string): Promise<void>;
}

export interface LakeExportItem<Id> {
  id: Id;
  message: LakeMessage;
}

export interface LakeExportResult<Id> {
  files: { table: LakeTableName; tenantId: string; key: string; rows: number }[];
  failed: { id: Id; error: unknown }[];
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

export async function exportToLake<Id>(
  items: readonly LakeExportItem<Id>[],
  deps: LakeExportDeps,
): Promise<LakeExportResult<Id>> {
  const owners = new Map<string, Id[]>();
  const records = items.flatMap(({ id, message }) =>
    lakeRecordsOf(message).map((record) => {
      const group = `${record.table}\u0000${record.tenantId}\u0000${record.date}`;
      owners.set(group, [...(owners.get(group) ?? []), id]);
      return record;
    }),
  );
  const files = lakeFilesOf(records, shortHash);
  const failed = new Map<Id, unknown>();
  const written: LakeExportResult<Id>['files'] = [];
  const catalogs = new Map<string, Promise<void>>();
  await Promise.all(
    files.map(async (file) => {
      try {
        let catalog = catalogs.get(file.tenantId);
        if (!catalog) catalogs.set(file.tenantId, (catalog = deps.ensureCatalog(file.tenantId)));
        await catalog;
        await deps.putFile(file.key, deps.encode(lakeTable(file.table), file.rows));
        written.push({ table: file.table, tenantId: file.tenantId, key: file.key, rows: file.rows.length });
      } catch (error) {
        for (const id of owners.get(`${file.table}\u0000${file.tenantId}\u0000${file.date}`) ?? [])
          failed.set(id, error);
      }
    }),
  );
  return { files: written, failed: [...failed].map(([id, error]) => ({ id, error })) };
}
