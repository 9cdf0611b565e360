/**
 * The data lake's query engine, a port (docs/data-lake.md): Athena in AWS
 * (shared/adapters/lake/athena.ts), DuckDB over the tenant's files under `npm start` and the tests
 * (shared/local/lake-duckdb.ts, installed by shared/local/compose.ts). Either way the engine is
 * given one tenant, and its configuration, not the SQL's text, keeps it to that tenant's data.
 */
import { athenaLakeEngine } from './athena.js';
import type { LakeEngine } from './types.js';
import { portOf, setPort } from '../../runtime-ports.js';

export * from './types.js';

let athena: LakeEngine | undefined;

/** Where the program is composed: the engine to use instead of Athena (shared/runtime-ports.ts). */
export function useLakeEngine(engine: LakeEngine): void {
  setPort('lakeEngine', engine);
}

export function lakeEngine(): LakeEngine {
  return portOf<LakeEngine>('lakeEngine') ?? (athena ??= athenaLakeEngine());
}
