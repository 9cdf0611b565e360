/** The data lake: read-only SQL over the tenant's exported events, positions and incidents (docs/data-lake.md). */
import { dataLakeQueryBody, dataLakeQueryResponse, dataLakeTablesResponse } from '../schemas/data-lake.js';
import type { RouteDef } from './types.js';

export const dataLakeQueryRoute = {
  id: 'data-lake.query',
  method: 'POST',
  path: '/api/v1/data-lake/query',
  handler: 'functions/data-lake/query.ts',
  // A read of the tenant's own data, like every other VIEWER route; bounded in time, bytes and rows.
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'data-lake',
  summary: "Runs one read-only SQL SELECT over the caller's tenant's data lake",
  description:
    "The tables (GET /api/v1/data-lake/tables) hold the caller's tenant's events, vessel positions and incidents as exported to Parquet, each record once; they are about a minute behind. " +
    "Athena runs the query in AWS, DuckDB locally; either is given only this tenant's data, so SQL naming another tenant's files, a local file or a URL fails. " +
    'One statement, a SELECT; it runs at most 20 s, scans at most 1 GiB and returns at most `max_rows` rows (`truncated` says there were more). ' +
    'SQL that cannot run (a syntax error, an unknown table, a refused file, a bound reached, a write) is 422 with the engine\'s message at `["body","sql"]`.',
  request: { body: dataLakeQueryBody },
  response: { status: 200, description: 'The columns and rows.', schema: dataLakeQueryResponse },
  rateLimit: { name: 'data-lake', perMinute: 30 },
  grants: { table: 'read', lake: 'query' },
  // The query may take up to 20 s (LAKE_BOUNDS.timeoutMs), polled; room for the rest, under API Gateway's 29 s.
  timeoutSeconds: 28,
  memoryMb: 512,
} as const satisfies RouteDef;

export const dataLakeTablesRoute = {
  id: 'data-lake.tables',
  method: 'GET',
  path: '/api/v1/data-lake/tables',
  handler: 'functions/data-lake/tables.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'data-lake',
  summary: "The data lake's tables, their columns and the bounds of a query",
  response: { status: 200, description: 'Tables and bounds.', schema: dataLakeTablesResponse },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const dataLakeRoutes: readonly RouteDef[] = [dataLakeQueryRoute, dataLakeTablesRoute];
