/**
 * A tenant's infrastructure lines across its files: the nearest to a point (the indexes of the
 * files with lines, each read from S3 once per container: files never change once stored), a
 * listing, and tagging a file's lines as subsea cables, pipelines or power lines (kept on the
 * file's item: tags change, the index does not).
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { listSiteEntitiesOfTenant, SITE_KINDS, updateSiteEntity } from '../../db/site-entities.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { ConflictError, invalid } from '../../errors.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { LineKind } from '../../vocabulary/lines.js';
import { hasLines } from './line-index.js';
import { linesNear, openLineIndex, type LineHit, type LineIndex } from './line-search.js';
import { linesNearArea } from './area-search.js';
import type { Polygon } from 'geojson';
import { findFileRecord } from './storage.js';
import turfLength from '@turf/length';
import { lineString } from '@turf/helpers';

import { kindOf, readLineData, type LineFile } from './line-data.js';

export { kindOf, type LineFile };

/** Files of a tenant read at most (each may hold many lines). */
const MAX_FILES = 500;

export interface NearLine {
  /** `<file_id>:<line id in the file>`. */
  line_id: string;
  file_id: string;
  environment_id: string;
  name: string | null;
  kind: LineKind | 'unclassified';
  distance_m: number;
  nearest: { lat: number; lon: number };
}

const indexes = new Map<string, Promise<LineIndex>>();

/** A file's line index: its stored one, or (a file stored before lines were indexed) one built from its features. */
function indexOf(file: LineFile): Promise<LineIndex> {
  let index = indexes.get(file.file_id);
  if (!index) {
    index = readLineData(file).then(openLineIndex);
    if (indexes.size > 200) indexes.clear();
    indexes.set(file.file_id, index);
    index.catch(() => indexes.delete(file.file_id));
  }
  return index;
}

/** The tenant's files that hold lines (one Query). */
export async function lineFiles(tenantId: TenantId): Promise<LineFile[]> {
  const files = await listSiteEntitiesOfTenant<LineFile>(SITE_KINDS.file, tenantId, { limit: MAX_FILES, offset: 0 });
  return files.filter((f) => hasLines(f.geometry_types));
}

/** The hits of `search` in each of the files' line indexes, as the tenant's lines, nearest first. */
async function searchFiles(files: readonly LineFile[], search: (index: LineIndex) => LineHit[]): Promise<NearLine[]> {
  const hits = await Promise.all(
    files.map(async (file) =>
      search(await indexOf(file)).map((h) => ({
        line_id: `${file.file_id}:${h.line.line_id}`,
        file_id: file.file_id,
        environment_id: file.environment_id,
        name: h.line.name,
        kind: kindOf(file, h.line.line_id),
        distance_m: h.distance_m,
        nearest: h.nearest,
      })),
    ),
  );
  return hits.flat().sort((a, b) => a.distance_m - b.distance_m);
}

/** The tenant's lines within `maxMetres` of a point, nearest first, at most `limit`. */
export async function nearestLines(
  tenantId: TenantId,
  at: { lat: number; lon: number },
  maxMetres: number,
  limit: number,
  files?: LineFile[],
): Promise<NearLine[]> {
  return (await linesNearPointIn(files ?? (await lineFiles(tenantId)), at, maxMetres)).slice(0, limit);
}

/** The lines of `files` within `maxMetres` of a point, nearest first. */
export async function linesNearPointIn(
  files: readonly LineFile[],
  at: { lat: number; lon: number },
  maxMetres: number,
): Promise<NearLine[]> {
  return searchFiles(files, (index) => linesNear(index, at, maxMetres));
}

/** The lines of `files` crossing an area or within `maxMetres` of it, nearest first (shared/domain/infrastructure/area-search.ts). */
export async function linesNearAreaIn(
  files: readonly LineFile[],
  area: Polygon,
  maxMetres: number,
): Promise<NearLine[]> {
  return searchFiles(files, (index) => linesNearArea(index, area, maxMetres));
}

export interface LineSummary {
  line_id: string;
  file_id: string;
  environment_id: string;
  name: string | null;
  kind: LineKind | 'unclassified';
  length_km: number;
  vertices: number;
  bbox: [number, number, number, number];
}

/** The tenant's lines, optionally of one kind, in file and line order. */
export async function listLines(tenantId: TenantId, kind?: LineKind | 'unclassified'): Promise<LineSummary[]> {
  const files = await lineFiles(tenantId);
  const out: LineSummary[] = [];
  for (const file of files) {
    const index = await indexOf(file);
    for (const line of index.data.lines) {
      const k = kindOf(file, line.line_id);
      if (kind && k !== kind) continue;
      const lons = line.coordinates.map((c) => c[0]!);
      const lats = line.coordinates.map((c) => c[1]!);
      out.push({
        line_id: `${file.file_id}:${line.line_id}`,
        file_id: file.file_id,
        environment_id: file.environment_id,
        name: line.name,
        kind: k,
        length_km: Math.round(turfLength(lineString(line.coordinates), { units: 'kilometers' }) * 1000) / 1000,
        vertices: line.coordinates.length,
        bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
      });
    }
  }
  return out;
}

/**
 * Tags lines of a file: those named (ids within the file, as listed), or every line of the file
 * when none is named (lines tagged one by one keep their own tag). Audited.
 */
export async function tagLines(
  actor: Actor,
  tenantId: TenantId,
  environmentId: string,
  fileId: string,
  change: { kind: LineKind; line_ids?: string[] },
): Promise<{ file_id: string; kind: LineKind; tagged: number }> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const file = (await findFileRecord(env, fileId)) as LineFile;
  if (!hasLines(file.geometry_types)) throw invalid(['path', 'file_id'], 'the file holds no lines', 'no_lines');
  const index = await indexOf(file);
  const known = new Set(index.data.lines.map((l) => l.line_id));
  change.line_ids?.forEach((id, i) => {
    if (!known.has(id)) throw invalid(['body', 'line_ids', i], `the file has no line ${id}`, 'unknown_line');
  });
  const fields = change.line_ids
    ? {
        line_kinds: {
          ...(file.line_kinds ?? {}),
          ...Object.fromEntries(change.line_ids.map((id) => [id, change.kind])),
        },
      }
    : { lines_kind: change.kind };
  const audit = auditEntry(actor, {
    tenantId,
    action: 'infrastructure_file.lines_tagged',
    resourceType: SITE_KINDS.file.resource,
    resourceId: fileId,
    changes: { kind: change.kind, line_ids: change.line_ids ?? 'all' },
  });
  try {
    await transactWrite([...updateSiteEntity(SITE_KINDS.file, file, fields, file.version), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed) throw new ConflictError('The file changed meanwhile; try again');
    throw err;
  }
  return { file_id: fileId, kind: change.kind, tagged: change.line_ids?.length ?? index.data.lines.length };
}
