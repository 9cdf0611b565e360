/** The data lake's query and tables (docs/data-lake.md). */
import { LAKE_BOUNDS } from '../vocabulary/data-lake.js';
import type { JsonSchema } from './json-schema.js';

export const MAX_SQL_LENGTH = 20_000;

export const dataLakeQueryBody = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      sql: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_SQL_LENGTH,
        description:
          'One read-only SELECT (or WITH ... SELECT) over the tables of GET /api/v1/data-lake/tables. DuckDB SQL locally, Athena (Trino) SQL in AWS.',
      },
      max_rows: {
        type: 'integer',
        minimum: 1,
        maximum: LAKE_BOUNDS.maxRows,
        default: LAKE_BOUNDS.defaultRows,
        description: `Rows returned at most (default ${LAKE_BOUNDS.defaultRows}, at most ${LAKE_BOUNDS.maxRows}); more set \`truncated\`.`,
      },
    },
    required: ['sql'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const dataLakeQueryResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      columns: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            type: { type: 'string', description: "The engine's type name (DuckDB's or Athena's)." },
          },
          required: ['name', 'type'],
          additionalProperties: false,
        },
      },
      rows: {
        type: 'array',
        description:
          'Rows as arrays, in column order. Integers that fit a JSON number exactly are numbers; timestamps are text.',
        items: { type: 'array', items: {} },
      },
      truncated: { type: 'boolean', description: 'Whether the result had more rows than `max_rows`.' },
      bytes_scanned: {
        type: 'integer',
        minimum: 0,
        description: "Bytes the engine read: Athena's data scanned, or the size of the tenant's files given to DuckDB.",
      },
      engine: { type: 'string', enum: ['athena', 'duckdb'] },
    },
    required: ['columns', 'rows', 'truncated', 'bytes_scanned', 'engine'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const dataLakeTablesResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tables: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            columns: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  type: { type: 'string', enum: ['string', 'double', 'bigint', 'boolean', 'timestamp'] },
                  description: { type: 'string' },
                },
                required: ['name', 'type', 'description'],
                additionalProperties: false,
              },
            },
          },
          required: ['name', 'description', 'columns'],
          additionalProperties: false,
        },
      },
      max_rows: { type: 'integer', description: 'Rows a query returns at most.' },
      timeout_seconds: { type: 'integer', description: 'A query running longer is stopped.' },
      max_bytes_scanned: { type: 'integer', description: 'Bytes a query may scan at most.' },
    },
    required: ['tables', 'max_rows', 'timeout_seconds', 'max_bytes_scanned'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
