/**
 * Read-only SQL over the tenant's data lake (docs/data-lake.md). The engine is given the tenant
 * and keeps the query to its data by its own configuration; this checks the request's bounds and
 * turns the engine's refusals into 422s naming the SQL's problem.
 */
import { invalid } from '../../errors.js';
import { LAKE_BOUNDS, LakeSqlError, type LakeAnswer, type LakeEngine } from '../../adapters/lake/types.js';
import { LAKE_TABLES } from './tables.js';

export interface LakeQueryRequest {
  sql: string;
  max_rows?: number;
}

export async function queryLake(engine: LakeEngine, tenantId: string, request: LakeQueryRequest): Promise<LakeAnswer> {
  const maxRows = Math.min(request.max_rows ?? LAKE_BOUNDS.defaultRows, LAKE_BOUNDS.maxRows);
  try {
    return await engine.query({ tenantId, sql: request.sql, maxRows });
  } catch (err) {
    if (err instanceof LakeSqlError) throw invalid(['body', 'sql'], err.message, 'sql_error');
    throw err;
  }
}

/** The tables a query can read, their columns, and the bounds. */
export function lakeTables() {
  return {
    tables: LAKE_TABLES.map((t) => ({
      name: t.name,
      description: t.description,
      columns: t.columns.map((c) => ({ ...c })),
    })),
    max_rows: LAKE_BOUNDS.maxRows,
    timeout_seconds: LAKE_BOUNDS.timeoutMs / 1000,
    max_bytes_scanned: LAKE_BOUNDS.maxBytesScanned,
  };
}
