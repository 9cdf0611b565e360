/**
 * An RPKI validator's export kept as ONE object in the bucket per source (docs/connectors.md,
 * "RPKI"), not an item per VRP: the global set is some 700,000 VRPs. The object is the compact
 * list, one VRP a line (`<asn> <prefix> <maxLength> <ta>`, sorted), gzipped, at
 * `feeds/<source>/vrps.txt.gz`; its index item (shared/db/internet-health.ts) holds the list's
 * hash and count. A re-poll of the same export finds the same hash and writes nothing.
 *
 * Reading it back for validation keeps only the VRPs that overlap the tenant's watched prefixes
 * (a VRP covering a route inside a watched prefix covers or lies inside that prefix), so the index
 * a RIS poll builds is small whatever the export's size.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { getObjectBytes, putObject } from '../../adapters/s3.js';
import { getRpkiExport, putRpkiExport, type RpkiExportIndex } from '../../db/internet-health.js';
import type { VrpRecord } from '../../feeds/rpki-vrps.js';

export const rpkiObjectKey = (source: string) => `feeds/${source}/vrps.txt.gz`;

/** The compact list: one line per VRP, sorted, so the same set gives the same text whatever its order in the export. */
export function compactVrps(vrps: readonly VrpRecord[]): string {
  return (
    vrps
      // A trust anchor's name is one word here (`ripe`, `apnic`); a space in one would split its line.
      .map((v) => `${v.asn} ${v.prefix} ${v.max_length} ${(v.ta ?? '-').replace(/\s+/g, '_')}`)
      .sort()
      .join('\n')
  );
}

/** The VRPs of a compact list whose prefix passes `keep` (all without it). */
export function readCompactVrps(
  text: string,
  sourceUrl: string,
  keep: (prefix: string) => boolean = () => true,
): VrpRecord[] {
  const out: VrpRecord[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [asn, prefix, max, ta] = line.split(' ') as [string, string, string, string];
    if (!keep(prefix)) continue;
    out.push({
      id: `vrp-${asn}-${prefix}-${max}`,
      asn: Number(asn),
      prefix,
      max_length: Number(max),
      ta: ta === '-' ? null : ta,
      source_url: sourceUrl,
    });
  }
  return out;
}

export interface KeptExport {
  /** VRPs newly kept: the whole set when the export changed, 0 when it is the one kept. */
  stored: number;
  unchanged: number;
  index: RpkiExportIndex;
}

/**
 * Keeps an export: one GetItem of its index; when the hash differs (or there is none), one PutObject
 * and one PutItem. `compact` is the export's compactVrps text.
 */
export async function keepRpkiExport(
  source: string,
  sourceUrl: string,
  compact: string,
  vrps: number,
  at: string,
): Promise<KeptExport> {
  const hash = createHash('sha256').update(compact).digest('base64url');
  const before = await getRpkiExport(source);
  if (before && before.vrps_hash === hash) return { stored: 0, unchanged: vrps, index: before };
  const body = gzipSync(compact);
  const key = rpkiObjectKey(source);
  await putObject(key, body, 'application/gzip');
  const index: RpkiExportIndex = {
    source,
    source_url: sourceUrl,
    vrps_hash: hash,
    vrps,
    object_key: key,
    object_bytes: body.length,
    stored_at: at,
    checked_at: at,
  };
  await putRpkiExport(index);
  return { stored: vrps, unchanged: 0, index };
}

/** The object of the last export read, kept by the container: a poll every few minutes reads it once per change. */
let cached: { key: string; hash: string; text: string } | null = null;

/**
 * The VRPs of a source's kept export that pass `keep`, with the export's hash; null before its
 * first poll. One GetItem, and one GetObject unless the container holds this export already.
 */
export async function keptVrps(
  source: string,
  keep: (prefix: string) => boolean,
): Promise<{ vrps: VrpRecord[]; index: RpkiExportIndex } | null> {
  const index = await getRpkiExport(source);
  if (!index) return null;
  if (!cached || cached.key !== index.object_key || cached.hash !== index.vrps_hash) {
    const bytes = await getObjectBytes(index.object_key);
    if (!bytes) return null;
    cached = { key: index.object_key, hash: index.vrps_hash, text: gunzipSync(bytes).toString('utf8') };
  }
  return { vrps: readCompactVrps(cached.text, index.source_url, keep), index };
}
