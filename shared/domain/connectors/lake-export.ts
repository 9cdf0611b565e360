/**
 * Connector records into the data lake (docs/data-lake.md, `feed_records`): after a poll, the
 * records that are new or changed since that connector's previous poll are written as one Parquet
 * file in the tenant's own part of the lake, so a tenant's SQL sees what its connectors read and
 * nothing else, with the same isolation as its events.
 *
 * Why per connector, not per record stored: the records of a public feed are kept once for the
 * whole platform, so the poll that stores them belongs to whichever tenant came first; the lake
 * is per tenant. Each connector keeps, next to the lake, the fingerprints of what it exported last
 * (one small object: a short hash per record id and content), and exports the difference.
 *
 * Nothing lost, nothing twice: the file's key hashes its rows' fingerprints, and the state is
 * written only after the file. A poll that fails between the two exports the same rows again into
 * the same key; a state that cannot be written fails the poll, and the next one exports again.
 */
import { createHash } from 'node:crypto';
import { lakeCatalog } from '../../adapters/lake/catalog.js';
import { parquetOf } from '../../adapters/lake/parquet.js';
import { getObjectBytes, putObject } from '../../adapters/s3.js';
import { lakeTable, LAKE_PREFIX, tenantTablePrefix, type LakeRow } from '../../vocabulary/data-lake.js';
import type { FeedName } from '../../schemas/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Each connector's fingerprints of what it exported last: `lake-state/connectors/<tenant>/<connector>.txt`. */
const statePrefix = (tenantId: string) => `${LAKE_PREFIX.replace(/\/$/, '')}-state/connectors/${tenantId}/`;

/** A record's own time, by the field its feed gives it (docs/feeds.md): the first that is a date. */
const TIME_FIELDS = ['time', 'from', 'onset', 'effective', 'sent', 'date_added', 'valid_from', 'updated'] as const;

const fingerprint = (record: { id: string }) => createHash('sha256').update(record.id).update('\u0000').update(JSON.stringify(record)).digest('base64url').slice(0, 16);

function recordTime(record: Record<string, unknown>): Date | null {
  for (const field of TIME_FIELDS) {
    const v = record[field];
    if (typeof v !== 'string') continue;
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return new Date(ms);
  }
  return null;
}

const coordinate = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export interface LakeExportOutcome {
  /** Rows written in this poll's file (0: nothing new, and no file). */
  rows: number;
  key: string | null;
}

/** The rows of a poll's records that the connector has not exported as they are now. */
export function connectorLakeRows(
  tenantId: string,
  connector: { id: string; feed: FeedName; source: string },
  records: readonly { id: string }[],
  fetchedAt: string,
  exported: ReadonlySet<string>,
): { rows: LakeRow[]; fingerprints: string[] } {
  const fetched = new Date(fetchedAt);
  const byId = new Map(records.map((r) => [r.id, r]));
  const rows: LakeRow[] = [];
  const fingerprints: string[] = [];
  for (const record of byId.values()) {
    const print = fingerprint(record);
    fingerprints.push(print);
    if (exported.has(print)) continue;
    const fields = record as Record<string, unknown>;
    rows.push({
      record_key: `${connector.source}|${record.id}`,
      tenant_id: tenantId,
      connector_id: connector.id,
      feed: connector.feed,
      source: connector.source,
      record_id: record.id,
      record_time: recordTime(fields),
      lat: coordinate(fields.lat),
      lon: coordinate(fields.lon),
      fetched_at: fetched,
      record: JSON.stringify(record),
    });
  }
  return { rows, fingerprints: fingerprints.sort() };
}

/**
 * Exports what a poll read that the connector has not exported yet. The state is the poll's whole
 * set of fingerprints, so a record that leaves the feed and comes back unchanged is exported again
 * (the lake keeps one row per `record_key`, the latest).
 */
export async function exportConnectorRecords(
  tenantId: TenantId,
  connector: { id: string; feed: FeedName; source: string },
  records: readonly { id: string }[],
  fetchedAt: string,
): Promise<LakeExportOutcome> {
  const stateKey = `${statePrefix(tenantId)}${connector.id}.txt`;
  const before = await getObjectBytes(stateKey);
  const exported = new Set(before ? before.toString('utf8').split('\n').filter(Boolean) : []);
  const { rows, fingerprints } = connectorLakeRows(tenantId, connector, records, fetchedAt, exported);
  let key: string | null = null;
  if (rows.length > 0) {
    await lakeCatalog().ensureTenant(tenantId);
    const name = createHash('sha256').update(rows.map((r) => `${r.record_key}\u0000${r.record}`).join('\n')).digest('hex').slice(0, 32);
    key = `${tenantTablePrefix('feed_records', tenantId)}dt=${fetchedAt.slice(0, 10)}/${connector.id}-${name}.parquet`;
    await putObject(key, parquetOf(lakeTable('feed_records'), rows), 'application/vnd.apache.parquet');
  }
  const state = fingerprints.join('\n');
  if (before?.toString('utf8') !== state) await putObject(stateKey, state, 'text/plain');
  return { rows: rows.length, key };
}
