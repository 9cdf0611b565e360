/** The data lake's query engine port: what a query is and answers (shared/adapters/lake/engine.ts). */

import { isNamedError } from '../../runtime-ports.js';

export interface LakeQuery {
  tenantId: string;
  sql: string;
  /** Rows returned at most; more make `truncated` true. */
  maxRows: number;
}

export interface LakeAnswer {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  truncated: boolean;
  /** What the engine read: Athena's DataScannedInBytes, or the size of the tenant's files DuckDB was given. */
  bytes_scanned: number;
  engine: 'athena' | 'duckdb';
}

/** The SQL cannot run: not one read-only statement, an unknown table, a refused file or a bound reached. A 422. */
export class LakeSqlError extends Error {
  override readonly name = 'LakeSqlError';
  /** By name: the local stand-in throws its own copy of this class (shared/runtime-ports.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, 'LakeSqlError');
  }
}

export interface LakeEngine {
  query(query: LakeQuery): Promise<LakeAnswer>;
}

export { LAKE_BOUNDS } from '../../vocabulary/data-lake.js';
