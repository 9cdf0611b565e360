/** The bounds of every data-lake query (docs/data-lake.md), whichever the engine. */
export const LAKE_BOUNDS = {
  /** Rows returned at most (a request may ask for fewer). */
  maxRows: 1000,
  defaultRows: 100,
  /** A query running longer is interrupted (Athena: stopped). Under the query route's 30 s timeout. */
  timeoutMs: 20_000,
  /** Bytes a query may read at most: the Athena workgroup's cutoff; DuckDB refuses a tenant's lake larger than this. */
  maxBytesScanned: 1024 ** 3,
  /** The local engine's memory and threads. */
  memoryLimit: '256MB',
  threads: 2,
} as const;
