/**
 * Connector records into the data lake (docs/data-lake.md, `feed_records`): after a poll, the
 * records that are new or changed since that connector's previous poll are sent to the
 * `data-lake` queue, whose worker (`export-lake`) writes them as Parquet in the tenant's own part
 * of the lake, as it writes events: one writer of the lake and its catalog, and a poll that carries
 * neither a Parquet encoder nor the Glue client.
 *
 * Why per connector, not per record stored: the records of a public feed are kept once for the
 * whole platform, so the poll that stores them belongs to whichever tenant came first; the lake is
 * per tenant. Each connector keeps, next to the lake, the fingerprints of what it exported last
 * (one small object: a short hash per record id and content), and exports the difference.
 *
 * Nothing lost: the state is written only after the queue took every message. A poll that fails
 * between the two sends the same rows again at the next poll (a later `fetched_at`; the lake keeps
 * one row per `record_key`, the latest), and a state that cannot be written fails the poll.
 */
import { createHash } from 'node:crypto';
import { queues } from '../../adapters/queue.js';
import { getObjectBytes, putObject } from '../../adapters/s3.js';
import { CONNECTORS_SOURCE, FEED_RECORDS_EXPORTED } from '../../vocabulary/bus.js';
import { LAKE_PREFIX } from '../../vocabulary/data-lake.js';
import type { FeedName } from '../../schemas/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Each connector's fingerprints of what it exported last: `lake-state/connectors/<tenant>/<connector>.txt`. */
const statePrefix = (tenantId: string) => `${LAKE_PREFIX.replace(/\/$/, '')}-state/connectors/${tenantId}/`;

/** A record's own time, by the field its feed gives it (docs/feeds.md): the first that is a date. */
const TIME_FIELDS = ['time', 'from', 'onset', 'effective', 'sent', 'date_added', 'valid_from', 'updated'] as const;

/** A queue message's body stays under this (SQS takes 256 KiB); a record larger than it goes without its body (`truncated`). */
export const MAX_MESSAGE_BYTES = 200 * 1024;

const fingerprint = (record: { id: string }) =>
  createHash('sha256')
    .update(record.id)
    .update('\u0000')
    .update(JSON.stringify(record))
    .digest('base64url')
    .slice(0, 16);

function recordTime(record: Record<string, unknown>): string | null {
  for (const field of TIME_FIELDS) {
    const v = record[field];
    if (typeof v !== 'string') continue;
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return null;
}

const coordinate = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One row of `feed_records` as the queue carries it (times as RFC 3339 strings). */
export interface FeedRecordRow {
  record_key: string;
  tenant_id: string;
  connector_id: string;
  feed: string;
  source: string;
  record_id: string;
  record_time: string | null;
  lat: number | null;
  lon: number | null;
  fetched_at: string;
  record: string | null;
  truncated: boolean;
}

/** The rows of a poll's records that the connector has not exported as they are now, and the poll's fingerprints. */
export function connectorLakeRows(
  tenantId: string,
  connector: { id: string; feed: FeedName; source: string },
  records: readonly { id: string }[],
  fetchedAt: string,
  exported: ReadonlySet<string>,
): { rows: FeedRecordRow[]; fingerprints: string[] } {
  const byId = new Map(records.map((r) => [r.id, r]));
  const rows: FeedRecordRow[] = [];
  const fingerprints: string[] = [];
  for (const record of byId.values()) {
    const print = fingerprint(record);
    fingerprints.push(print);
    if (exported.has(print)) continue;
    const fields = record as Record<string, unknown>;
    const body = JSON.stringify(record);
    const fits = Buffer.byteLength(body) <= MAX_MESSAGE_BYTES / 2;
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
      fetched_at: fetchedAt,
      record: fits ? body : null,
      truncated: !fits,
    });
  }
  return { rows, fingerprints: fingerprints.sort() };
}

/** The queue messages of a poll's rows: EventBridge's envelope, as the exporter reads the bus's, each under MAX_MESSAGE_BYTES. */
export function lakeMessages(tenantId: string, rows: readonly FeedRecordRow[]): string[] {
  const bodies: string[] = [];
  const envelope = (part: readonly FeedRecordRow[]) =>
    JSON.stringify({
      source: CONNECTORS_SOURCE,
      'detail-type': FEED_RECORDS_EXPORTED,
      detail: { tenant_id: tenantId, rows: part },
    });
  let part: FeedRecordRow[] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (part.length > 0 && size + bytes > MAX_MESSAGE_BYTES - 512) {
      bodies.push(envelope(part));
      part = [];
      size = 0;
    }
    part.push(row);
    size += bytes;
  }
  if (part.length > 0) bodies.push(envelope(part));
  return bodies;
}

/**
 * Exports what a poll read that the connector has not exported yet. The state is the poll's whole
 * set of fingerprints, so a record that leaves the feed and comes back unchanged is exported again
 * (the lake keeps one row per `record_key`, the latest). The number of rows sent.
 */
export async function exportConnectorRecords(
  tenantId: TenantId,
  connector: { id: string; feed: FeedName; source: string },
  records: readonly { id: string }[],
  fetchedAt: string,
): Promise<number> {
  const stateKey = `${statePrefix(tenantId)}${connector.id}.txt`;
  const before = await getObjectBytes(stateKey);
  const exported = new Set(before ? before.toString('utf8').split('\n').filter(Boolean) : []);
  const { rows, fingerprints } = connectorLakeRows(tenantId, connector, records, fetchedAt, exported);
  if (rows.length > 0)
    await queues().send(
      'data-lake',
      lakeMessages(tenantId, rows).map((body) => ({ body })),
    );
  const state = fingerprints.join('\n');
  if (before?.toString('utf8') !== state) await putObject(stateKey, state, 'text/plain');
  return rows.length;
}
