/**
 * A file's lines as stored, without their R-tree (shared/domain/infrastructure/line-search.ts):
 * what the search reads to build its index, and one line of a tenant's read on its own (a
 * watchlist entry keeps its line's coordinates).
 */
import type { FeatureCollection } from 'geojson';
import { getObjectBytes } from '../../adapters/s3.js';
import { getSiteEntity, SITE_KINDS, type StoredSiteEntity } from '../../db/site-entities.js';
import { NotFoundError } from '../../errors.js';
import type { LineKind } from '../../vocabulary/lines.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { buildLineIndex, hasLines, type IndexedLine, type LineIndexData } from './line-index.js';
import { FILE_NOT_FOUND, linesObjectKey, type FileRecord } from './storage.js';

/** A file's item with its lines' tags. */
export type LineFile = StoredSiteEntity<
  FileRecord & { line_kinds?: Record<string, LineKind>; lines_kind?: LineKind | null }
>;

export const kindOf = (file: LineFile, lineId: string): LineKind | 'unclassified' =>
  file.line_kinds?.[lineId] ?? file.lines_kind ?? 'unclassified';

/** A file's lines: its stored `lines.json`, or (a file stored before lines were kept) built from its features. */
export async function readLineData(file: LineFile): Promise<LineIndexData> {
  const stored = await getObjectBytes(linesObjectKey(file.features_key));
  if (stored) return JSON.parse(stored.toString('utf8')) as LineIndexData;
  const features = await getObjectBytes(file.features_key);
  if (!features) throw new NotFoundError(FILE_NOT_FOUND);
  return buildLineIndex(JSON.parse(features.toString('utf8')) as FeatureCollection);
}

/** One line of the tenant's, with its file: null when the file is not the tenant's (or unknown), holds no lines, or has no such line. */
export async function findLine(
  tenantId: TenantId,
  fileId: string,
  lineId: string,
): Promise<{ file: LineFile; line: IndexedLine } | null> {
  const file = await getSiteEntity<LineFile>(SITE_KINDS.file, tenantId, fileId);
  if (!file || !hasLines(file.geometry_types)) return null;
  const line = (await readLineData(file)).lines.find((l) => l.line_id === lineId);
  return line ? { file, line } : null;
}
