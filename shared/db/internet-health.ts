/**
 * Internet health (docs/connectors.md, docs/data-model.md patterns 58-58c):
 *
 * - an RPKI export's index item, `FEED#<source>` / `EXPORT`: where its one object in the bucket is,
 *   the hash of its VRPs and how many there are (the VRPs themselves are not items);
 * - a tenant's routing snapshot, `T#tid` / `INTERNET_HEALTH`: each watched prefix's RPKI state
 *   against its expected origins, as the last poll that could judge it found it;
 * - a tenant's routing alerts, `T#tid#BGPALERTS` / `<time>#<alert id>`: each alert's guard item
 *   (shared/db/announce-once.ts) carries the alert, so the list is one Query, newest first.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import { FEED_PK_PREFIX } from './keys.js';
import { tenantPk } from './keys.js';
import { queryPage } from './query.js';

export interface RpkiExportIndex {
  source: string;
  source_url: string;
  /** sha256 (base64url) of the compact VRP list: the same export gives the same hash. */
  vrps_hash: string;
  vrps: number;
  /** The object in the bucket: the compact list, gzipped. */
  object_key: string;
  object_bytes: number;
  /** When this export was first read, and last read again unchanged. */
  stored_at: string;
  checked_at: string;
}

const exportKey = (source: string) => ({ PK: `${FEED_PK_PREFIX}${source}`, SK: 'EXPORT' });

/** The index item of an RPKI source, or null before its first poll (one GetItem). */
export async function getRpkiExport(source: string): Promise<RpkiExportIndex | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: exportKey(source), ConsistentRead: true }));
  return out.Item ? (out.Item.export as RpkiExportIndex) : null;
}

/** Keeps the index item (one PutItem). */
export async function putRpkiExport(index: RpkiExportIndex): Promise<void> {
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...exportKey(index.source), entity: 'RPKI_EXPORT', export: index } }),
  );
}

/** A watched prefix's RPKI state against each of its expected origins (RFC 6811). */
export interface PrefixRpki {
  prefix: string;
  origins: {
    asn: number;
    state: 'valid' | 'invalid' | 'not-found';
    covering: { asn: number; prefix: string; max_length: number }[];
  }[];
}

export interface RoutingSnapshot {
  computed_at: string;
  /** The RPKI source judged against, and its hash: null when the tenant has no rpki-vrps connector. */
  rpki_source: string | null;
  rpki_hash: string | null;
  prefixes: PrefixRpki[];
}

const snapshotKey = (tenantId: TenantId) => ({ PK: tenantPk(tenantId), SK: 'INTERNET_HEALTH' });

export async function getRoutingSnapshot(tenantId: TenantId): Promise<RoutingSnapshot | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: snapshotKey(tenantId) }));
  return out.Item ? (out.Item.snapshot as RoutingSnapshot) : null;
}

/** Keeps the snapshot (one PutItem). */
export async function putRoutingSnapshot(tenantId: TenantId, snapshot: RoutingSnapshot): Promise<void> {
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...snapshotKey(tenantId), entity: 'ROUTING_SNAPSHOT', snapshot } }),
  );
}

/** The partition of a tenant's routing alerts (their guard items). */
export const routingAlertsPk = (tenantId: TenantId) => `${tenantPk(tenantId)}#BGPALERTS`;
/** An alert's guard: by the time of the update that raised it, then its id (stable: a re-poll finds it). */
export const routingAlertSk = (time: string, alertId: string) => `${time}#${alertId}`;

/**
 * The tenant's routing alerts since `since` (RFC 3339), newest first, at most `max` (one Query,
 * of `max` items at most). Each item carries the alert as it was raised.
 */
export async function routingAlertsSince<A>(
  tenantId: TenantId,
  since: string,
  max: number,
): Promise<{ alert: A; connector_id: string; event_id: string }[]> {
  const items = await queryPage(
    { pk: routingAlertsPk(tenantId), skBetween: [since, '\uffff'], ascending: false },
    { limit: max, offset: 0 },
  );
  return items.map((i) => ({
    alert: i.alert as A,
    connector_id: String(i.connector_id),
    event_id: String(i.event_id),
  }));
}
