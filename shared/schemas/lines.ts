/** Infrastructure lines: listing them, tagging them, and a line near a point (docs/vessels.md). */
import { pageOf, pagingProperties, uuid } from './common.js';
import { latitude, longitude } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { LINE_KINDS } from '../vocabulary/lines.js';

const scope = /* @__PURE__ */ (() =>
  ({ tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description } }) as const)();
const point = { type: 'object', properties: { lat: latitude, lon: longitude }, required: ['lat', 'lon'] } as const;

export const nearLine = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      line_id: { type: 'string' },
      file_id: uuid,
      environment_id: uuid,
      name: { type: ['string', 'null'] },
      kind: { type: 'string', enum: [...LINE_KINDS, 'unclassified'] },
      distance_m: { type: 'number' },
      nearest: point,
    },
    required: ['line_id', 'file_id', 'name', 'kind', 'distance_m', 'nearest'],
  }) as const)();

export const lineListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      kind: { type: 'string', enum: [...LINE_KINDS, 'unclassified'], description: 'Only lines of this kind.' },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const lineSummary = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      line_id: { type: 'string', description: '`<file_id>:<line in the file>`.' },
      file_id: uuid,
      environment_id: uuid,
      name: { type: ['string', 'null'] },
      kind: { type: 'string', enum: [...LINE_KINDS, 'unclassified'] },
      length_km: { type: 'number' },
      vertices: { type: 'integer' },
      bbox: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
    },
    required: ['line_id', 'file_id', 'environment_id', 'name', 'kind', 'length_km', 'vertices', 'bbox'],
  }) as const satisfies JsonSchema)();

export const lineTag = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: LINE_KINDS },
    line_ids: {
      type: 'array',
      items: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      description: "Lines of the file (the part after ':' in a line_id); every line of the file when absent.",
    },
  },
  required: ['kind'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const lineTagResponse = {
  type: 'object',
  properties: { file_id: uuid, kind: { type: 'string', enum: LINE_KINDS }, tagged: { type: 'integer' } },
  required: ['file_id', 'kind', 'tagged'],
} as const satisfies JsonSchema;

export const lineList = /* @__PURE__ */ (() => pageOf(lineSummary, 'A page of lines, by file, then in file order.'))();
