/** A tenant's watchlist entries (shared/domain/watchlist/entries.ts, docs/watchlist.md). */
import { nullable, pagingProperties, timestamp, uuid } from '../common.js';
import type { JsonSchema } from '../json-schema.js';
import { tenantScope } from '../users.js';
import { LINE_KINDS } from '../../vocabulary/lines.js';
import { MAX_WATCHED_LINE_VERTICES, WATCHLIST_ENTITY_TYPES } from '../../vocabulary/watchlist.js';

const entityType = {
  type: 'string',
  enum: WATCHLIST_ENTITY_TYPES,
  description:
    '`vessel` (an MMSI), `line` (one of your infrastructure lines), `ip` (an address or CIDR range), `domain` (a host name and its subdomains), `asn` (an autonomous system), `country` (ISO 3166-1 alpha-2).',
} as const;

const VALUE_FORMS =
  'vessel: nine digits (`257123450`); line: `<file_id>/<line_id>` as `GET /api/v1/infrastructure/lines` lists it (`<file_id>:<line_id>` is taken too); ip: `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`; domain: `example.com`; asn: `AS64500` or `64500`; country: `NO`.';

export const watchlistEntryCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose watchlist to add to: your own (only SUPER_ADMIN may name another).',
      },
      entity_type: entityType,
      value: {
        type: ['string', 'integer'],
        minLength: 1,
        maxLength: 300,
        description: `What to watch, by type: ${VALUE_FORMS}`,
      },
      label: { type: 'string', maxLength: 200, description: 'A short name to show for it.' },
      note: { type: 'string', maxLength: 2000, description: 'Why it is watched.' },
    },
    required: ['entity_type', 'value'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const vertex = {
  type: 'array',
  items: { type: 'number' },
  minItems: 2,
  maxItems: 2,
  description: '`[lon, lat]`.',
} as const;

const watchedLine = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: "The line as it was when added, so a position's distance to it needs no file read.",
    properties: {
      file_id: uuid,
      line_id: { type: 'string', description: 'The line within its file (`3`, `2.1`).' },
      environment_id: uuid,
      name: nullable({ type: 'string' }),
      kind: { type: 'string', enum: [...LINE_KINDS, 'unclassified'], description: 'Its tag when it was added.' },
      vertices: {
        type: 'array',
        items: vertex,
        minItems: 2,
        maxItems: MAX_WATCHED_LINE_VERTICES,
        description: `Its vertices in order, at most ${MAX_WATCHED_LINE_VERTICES}: a longer line is thinned evenly (its first and last kept).`,
      },
      thinned: {
        type: 'boolean',
        description: `Whether the line has more than ${MAX_WATCHED_LINE_VERTICES} vertices and \`vertices\` is a thinned copy.`,
      },
      source_vertices: { type: 'integer', minimum: 2, description: 'How many vertices the line has in its file.' },
    },
    required: ['file_id', 'line_id', 'environment_id', 'name', 'kind', 'vertices', 'thinned', 'source_vertices'],
  }) as const)();

const entryFields = /* @__PURE__ */ (() =>
  ({
    entry_id: uuid,
    tenant_id: uuid,
    entity_type: entityType,
    value: {
      type: ['string', 'integer'],
      description: 'The entity as kept (docs/watchlist.md): normalised, and a number for an `asn`.',
    },
    label: nullable({ type: 'string' }),
    note: nullable({ type: 'string' }),
    line: {
      ...watchedLine,
      type: ['object', 'null'],
      description: `${watchedLine.description} Null unless \`entity_type\` is \`line\`.`,
    },
    created_at: timestamp,
    created_by: { ...uuid, description: 'The user who added it (for an API key, its user).' },
  }) as const)();

export const watchlistEntryResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: entryFields,
    required: Object.keys(entryFields),
  }) as const satisfies JsonSchema)();

export const watchlistListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose watchlist to list: your own (only SUPER_ADMIN may name another).',
      },
      entity_type: { ...entityType, description: 'Only entries of this type.' },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const watchlistEntryPath = {
  type: 'object',
  properties: { entry_id: uuid },
  required: ['entry_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const watchlistScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;
