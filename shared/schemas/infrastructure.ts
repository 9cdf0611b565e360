/** Infrastructure map files (KML, KMZ, GeoJSON, zipped shapefile) and their extracted geometries. */
import { nextOffset, pagingProperties, timestamp, uuid } from './common.js';
import { bbox } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const INFRASTRUCTURE_FORMATS = ['kml', 'kmz', 'geojson', 'shapefile'] as const;

/** Largest file sent directly as multipart: API Gateway and Lambda payload limits, with base64 overhead. */
export const MAX_DIRECT_UPLOAD_BYTES = 4 * 1024 * 1024;
/** Largest file through a presigned upload URL. */
export const MAX_PRESIGNED_UPLOAD_BYTES = 50 * 1024 * 1024;
/**
 * What a request extracts itself, by format; past it a file goes through upload-url and is
 * extracted in the background (shared/domain/infrastructure/budget.ts says why these bounds).
 * KML text (directly, or unpacked from a KMZ):
 */
export const MAX_SYNC_KML_BYTES = 4 * 1024 * 1024;
/** GeoJSON text: 8 MiB (a literal: esbuild keeps arithmetic, test/infra/tree-shaking.test.ts). */
export const MAX_SYNC_GEOJSON_BYTES = 8_388_608;
/** A zipped shapefile's .shp and .dbf files, counted as they are unpacked, and its records, counted as they are read. */
export const MAX_SYNC_SHAPEFILE_BYTES = 8_388_608;
export const MAX_SYNC_SHAPEFILE_RECORDS = 50_000;
/** What the background extraction reads of a file at most, counted while reading. */
export const MAX_STREAM_FEATURES = 500_000;
export const MAX_STREAM_VERTICES = 5_000_000;

/**
 * How a file larger than a request takes is sent instead (the 413 of upload says it, with the
 * environment filled in).
 */
export const LARGER_FILES_WAY =
  'upload it through POST /api/v1/environments/{environment_id}/infrastructure/upload-url, PUT it to the URL given, ' +
  'then POST /api/v1/environments/{environment_id}/infrastructure/{file_id}/extract, which extracts it in the background ' +
  '(202, then poll GET /api/v1/environments/{environment_id}/infrastructure/{file_id}/status)';

export const infrastructureFile = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      file_id: uuid,
      tenant_id: uuid,
      environment_id: uuid,
      filename: { type: 'string' },
      format: { type: 'string', enum: INFRASTRUCTURE_FORMATS },
      size_bytes: { type: 'integer' },
      feature_count: { type: 'integer', description: 'Features extracted for map overlay.' },
      geometry_types: {
        type: 'array',
        items: { type: 'string' },
        description: 'The GeoJSON geometry types found, e.g. Point, LineString, Polygon.',
      },
      bbox: { ...bbox, type: ['array', 'null'] },
      created_by: uuid,
      created_at: timestamp,
    },
    required: [
      'file_id',
      'tenant_id',
      'environment_id',
      'filename',
      'format',
      'size_bytes',
      'feature_count',
      'geometry_types',
      'bbox',
      'created_by',
      'created_at',
    ],
  }) as const satisfies JsonSchema)();

export const INFRASTRUCTURE_FILE_STATUSES = ['awaiting_upload', 'processing', 'ready', 'failed'] as const;

/** Where a file of the presigned flow stands: the answer of extract when it goes to the background, and of status. */
export const infrastructureFileStatus = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      file_id: uuid,
      environment_id: uuid,
      filename: { type: 'string' },
      status: {
        type: 'string',
        enum: INFRASTRUCTURE_FILE_STATUSES,
        description:
          '`awaiting_upload`: no extraction asked yet; `processing`: being extracted in the background; `ready`: stored, `file` says what was extracted; `failed`: refused, `reason` says why, and nothing of it is stored.',
      },
      reason: { type: ['string', 'null'], description: 'Why the file failed; null otherwise.' },
      file: {
        anyOf: [infrastructureFile, { type: 'null' }],
        description: 'The stored file once `ready`; null before.',
      },
    },
    required: ['file_id', 'environment_id', 'filename', 'status', 'reason', 'file'],
  }) as const satisfies JsonSchema)();

export const infrastructureList = {
  type: 'object',
  properties: {
    items: { type: 'array', items: infrastructureFile },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    next_offset: nextOffset,
  },
  required: ['items', 'total', 'limit', 'offset', 'next_offset'],
} as const satisfies JsonSchema;

export const infrastructureDeleted = {
  type: 'object',
  properties: {
    file_id: uuid,
    deleted: { type: 'boolean', enum: [true] },
    objects_removed: {
      type: 'integer',
      description: 'Stored objects removed: the original and its extracted geometries.',
    },
  },
  required: ['file_id', 'deleted', 'objects_removed'],
} as const satisfies JsonSchema;

export const featureCollection = {
  type: 'object',
  description: 'A GeoJSON FeatureCollection: the geometries of the file with their properties.',
  properties: {
    type: { type: 'string', enum: ['FeatureCollection'] },
    features: { type: 'array', items: { type: 'object' } },
  },
  required: ['type', 'features'],
} as const satisfies JsonSchema;

export const environmentScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const infrastructureListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const infrastructureFilePath = {
  type: 'object',
  properties: { environment_id: uuid, file_id: uuid },
  required: ['environment_id', 'file_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const uploadUrlRequest = {
  type: 'object',
  properties: {
    filename: {
      type: 'string',
      minLength: 5,
      maxLength: 255,
      pattern: '\\.(kml|kmz|geojson|json|zip)$',
      description: 'The name ends in .kml, .kmz, .geojson, .json or .zip (a zipped shapefile).',
    },
    size_bytes: { type: 'integer', minimum: 1, maximum: MAX_PRESIGNED_UPLOAD_BYTES },
  },
  required: ['filename', 'size_bytes'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const uploadUrlResponse = {
  type: 'object',
  properties: {
    file_id: uuid,
    upload_url: { type: 'string', description: 'PUT the file here, with the headers given, before expires_at.' },
    method: { type: 'string', enum: ['PUT'] },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    expires_at: timestamp,
    max_bytes: { type: 'integer' },
  },
  required: ['file_id', 'upload_url', 'method', 'headers', 'expires_at', 'max_bytes'],
} as const satisfies JsonSchema;
