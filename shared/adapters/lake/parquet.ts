/**
 * Parquet files of the lake's rows, written with hyparquet-writer: pure JavaScript (one small
 * dependency, hyparquet), so the export worker's bundle stays small and needs no native binary.
 * Snappy-compressed, the column types of the table's definition (shared/domain/data-lake/tables.ts).
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { LakeColumnType, LakeRow, LakeTable } from '../../vocabulary/data-lake.js';

const PARQUET_TYPE = {
  string: 'STRING',
  double: 'DOUBLE',
  bigint: 'INT64',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
} as const satisfies Record<LakeColumnType, string>;

export function parquetOf(table: LakeTable, rows: readonly LakeRow[]): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: table.columns.map((column) => ({
      name: column.name,
      type: PARQUET_TYPE[column.type],
      data: rows.map((row) => {
        const value = row[column.name] ?? null;
        return column.type === 'bigint' && typeof value === 'number' ? BigInt(Math.trunc(value)) : value;
      }),
    })),
    createdBy: 'gatehouse data-lake export',
  });
  return new Uint8Array(buffer);
}
