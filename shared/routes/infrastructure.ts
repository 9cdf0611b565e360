/** Infrastructure map files of an environment and their geometries. */
import { environmentPath } from '../schemas/environments.js';
import {
  environmentScopeQuery,
  featureCollection,
  infrastructureDeleted,
  infrastructureFile,
  infrastructureFilePath,
  infrastructureFileStatus,
  infrastructureList,
  infrastructureListQuery,
  LARGER_FILES_WAY,
  MAX_DIRECT_UPLOAD_BYTES,
  MAX_STREAM_FEATURES,
  MAX_STREAM_VERTICES,
  MAX_SYNC_GEOJSON_BYTES,
  MAX_SYNC_KML_BYTES,
  MAX_SYNC_SHAPEFILE_BYTES,
  MAX_SYNC_SHAPEFILE_RECORDS,
  uploadUrlRequest,
  uploadUrlResponse,
} from '../schemas/infrastructure.js';
import type { RouteDef } from './types.js';
import { lineList, lineListQuery, lineTag, lineTagResponse } from '../schemas/lines.js';

export const infrastructureUploadRoute = {
  id: 'infrastructure.upload',
  method: 'POST',
  path: '/api/v1/environments/{environment_id}/infrastructure/upload',
  handler: 'functions/infrastructure/upload.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'Upload a KML, KMZ, GeoJSON or zipped shapefile and extract its geometries',
  description: `Multipart form with the file in the field \`file\`, at most ${MAX_DIRECT_UPLOAD_BYTES} bytes. The request extracts at most ${MAX_SYNC_KML_BYTES} bytes of KML (a KMZ's counted as it is unpacked), and of a zipped shapefile ${MAX_SYNC_SHAPEFILE_BYTES} bytes of .shp and .dbf (counted as they are unpacked) or ${MAX_SYNC_SHAPEFILE_RECORDS} records; GeoJSON up to the upload's size. A larger file, or one past what the request extracts, is 413 naming the way that takes it: upload-url, a PUT of the file, then extract, which extracts it in the background. A file that cannot be read, whose name and content disagree, or that holds no geometry is 422; a refused file leaves nothing stored.`,
  request: { path: environmentPath, query: environmentScopeQuery },
  upload: {
    field: 'file',
    maxBytes: MAX_DIRECT_UPLOAD_BYTES,
    description: 'A .kml, .kmz, .geojson/.json or .zip (shapefile) file.',
    largerFiles: LARGER_FILES_WAY,
  },
  response: { status: 201, description: 'The stored file and what was extracted.', schema: infrastructureFile },
  errors: [404, 413, 415],
  timeoutSeconds: 29,
  // At most 4 MiB of KML: its XML tree peaked at 470 MB (docs/benchmarks.md; the other formats less).
  memoryMb: 1024,
  grants: { audit: 'seal', table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const infrastructureUploadUrlRoute = {
  id: 'infrastructure.uploadUrl',
  method: 'POST',
  path: '/api/v1/environments/{environment_id}/infrastructure/upload-url',
  handler: 'functions/infrastructure/upload-url.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'Get a presigned URL to upload a large file, then call extract',
  request: { path: environmentPath, query: environmentScopeQuery, body: uploadUrlRequest },
  response: { status: 201, description: 'Where and how to PUT the file.', schema: uploadUrlResponse },
  errors: [404],
  grants: { table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const infrastructureExtractRoute = {
  id: 'infrastructure.extract',
  method: 'POST',
  path: '/api/v1/environments/{environment_id}/infrastructure/{file_id}/extract',
  handler: 'functions/infrastructure/extract.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'Extract the geometries of a file uploaded through upload-url',
  description: `A file the request can extract (up to ${MAX_SYNC_KML_BYTES} bytes of KML, a KMZ's counted as it is unpacked; ${MAX_SYNC_GEOJSON_BYTES} bytes of GeoJSON; ${MAX_SYNC_SHAPEFILE_BYTES} bytes of a zipped shapefile's .shp and .dbf, counted as they are unpacked, or ${MAX_SYNC_SHAPEFILE_RECORDS} of its records) is extracted now: 201 with the file, or 422 with nothing left stored. A larger file of any format is handed to a background extraction that reads it as a stream (a shapefile record by record): 202 with its status (\`processing\`), to be followed at \`GET .../{file_id}/status\` until \`ready\` or \`failed\` (with the reason; at most ${MAX_STREAM_FEATURES} features (placemarks, records) and ${MAX_STREAM_VERTICES} coordinates are read). Asking again while it is processing answers the same 202.`,
  request: { path: infrastructureFilePath, query: environmentScopeQuery },
  response: {
    status: 201,
    description: 'The stored file and what was extracted.',
    schema: infrastructureFile,
    alsoStatus: {
      status: 202,
      description: 'Too large for the request: extracted in the background; follow its status.',
      schema: infrastructureFileStatus,
    },
  },
  errors: [404, 409, 413],
  timeoutSeconds: 29,
  memoryMb: 1024,
  grants: { audit: 'seal', table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const infrastructureStatusRoute = {
  id: 'infrastructure.status',
  method: 'GET',
  path: '/api/v1/environments/{environment_id}/infrastructure/{file_id}/status',
  handler: 'functions/infrastructure/status.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'Where a file of the presigned flow stands: awaiting its upload, processing, ready or failed',
  description:
    'For a file id from upload-url: `awaiting_upload` until its extract is asked, `processing` while it is extracted in the background, `ready` with the stored file, or `failed` with the reason (kept a day; nothing of the file is stored). A file uploaded directly is `ready`.',
  request: { path: infrastructureFilePath, query: environmentScopeQuery },
  response: { status: 200, description: "The file's status.", schema: infrastructureFileStatus },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const infrastructureListRoute = {
  id: 'infrastructure.list',
  method: 'GET',
  path: '/api/v1/environments/{environment_id}/infrastructure',
  handler: 'functions/infrastructure/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'List the infrastructure files of an environment',
  request: { path: environmentPath, query: infrastructureListQuery },
  response: { status: 200, description: 'A page of files, newest first.', schema: infrastructureList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const infrastructureFeaturesRoute = {
  id: 'infrastructure.features',
  method: 'GET',
  path: '/api/v1/environments/{environment_id}/infrastructure/{file_id}/features',
  handler: 'functions/infrastructure/features.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'The geometries of a file, as GeoJSON, for map overlay',
  description:
    'Collections over 4 MB (more than a Lambda response holds) answer 307 to a presigned download valid for 5 minutes.',
  request: { path: infrastructureFilePath, query: environmentScopeQuery },
  response: { status: 200, description: 'A FeatureCollection.', schema: featureCollection },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
} as const satisfies RouteDef;

export const infrastructureDeleteRoute = {
  id: 'infrastructure.delete',
  method: 'DELETE',
  path: '/api/v1/environments/{environment_id}/infrastructure/{file_id}',
  handler: 'functions/infrastructure/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'infrastructure',
  summary: 'Delete a file, its stored objects and its geometries',
  request: { path: infrastructureFilePath, query: environmentScopeQuery },
  response: { status: 200, description: 'What was removed.', schema: infrastructureDeleted },
  errors: [404],
  grants: { audit: 'seal', table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const infrastructureTagLinesRoute = {
  id: 'infrastructure.tagLines',
  method: 'PATCH',
  path: '/api/v1/environments/{environment_id}/infrastructure/{file_id}/lines',
  handler: 'functions/infrastructure/tag-lines.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'infrastructure',
  summary: "Tag a file's lines as subsea cables, pipelines or power lines",
  description:
    'Tags the lines named in `line_ids` (as `GET /api/v1/infrastructure/lines` lists them, the part after the colon), or every line of the file when none is named (a line tagged on its own keeps its tag). Cable risk and vessel profiles name each line with its kind. Audited. A file without lines, or an unknown line, is 422.',
  request: { path: infrastructureFilePath, query: environmentScopeQuery, body: lineTag },
  response: { status: 200, description: 'What was tagged.', schema: lineTagResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', bucket: 'read' },
} as const satisfies RouteDef;

export const infrastructureLinesRoute = {
  id: 'infrastructure.lines',
  method: 'GET',
  path: '/api/v1/infrastructure/lines',
  handler: 'functions/infrastructure/lines.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'infrastructure',
  summary: "The tenant's infrastructure lines (cables, pipelines, power lines) across its files",
  description:
    "Every LineString (and part of a MultiLineString) of the tenant's infrastructure files, with its kind, length and bounding box. The lines are indexed (an R-tree per file, built when the file is stored) for cable risk and vessel proximity.",
  request: { query: lineListQuery },
  response: { status: 200, description: 'A page of the lines.', schema: lineList },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
} as const satisfies RouteDef;

export const infrastructureRoutes: readonly RouteDef[] = [
  infrastructureTagLinesRoute,
  infrastructureLinesRoute,
  infrastructureUploadRoute,
  infrastructureUploadUrlRoute,
  infrastructureExtractRoute,
  infrastructureStatusRoute,
  infrastructureListRoute,
  infrastructureFeaturesRoute,
  infrastructureDeleteRoute,
];
