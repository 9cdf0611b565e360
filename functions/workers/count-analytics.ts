/**
 * Worker `count-analytics` (shared/workers.ts): the table's stream in, the analytics counters,
 * the active threats and the vessels' tracks out (shared/domain/analytics/stream-counting.ts,
 * shared/domain/threats/active.ts, shared/domain/vessels/tracker.ts), each event and each incident change
 * counted exactly once however often a record comes; new AIS events are tracked per tenant, in
 * the stream's order; the events' mentions are indexed for the threat score
 * (shared/domain/threat-score/mention-index.ts) and watched entities they touch raise watchlist alerts
 * (shared/domain/watchlist/touches.ts). New EVENT items are counted; INCIDENT items, new or changed,
 * move their contribution. Records whose counters could not be written are reported as batch item
 * failures, so Lambda retries them and, after the mapping's retries, sends them to the dead-letter
 * queue; the records before them that were counted are not counted again on the retry.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { countEvents, countIncidents, type ItemToCount } from '../../shared/domain/analytics/stream-counting.js';
import { eventFromItem } from '../../shared/db/events.js';
import { settleThreats, type MatchedEvent } from '../../shared/domain/threats/active.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';
import { AIS_EVENT_TYPES } from '../../shared/domain/vessels/ais-input.js';
import { trackTenant, type AisEvent } from '../../shared/domain/vessels/tracker.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { indexMentions } from '../../shared/domain/threat-score/mention-index.js';
import { raiseWatchlistAlerts } from '../../shared/domain/watchlist/touches.js';
import type { StoredEvent } from '../../shared/db/events.js';

/** Counts the records' new images; the response names the records that failed, in record order. */
export async function countStreamRecords(records: readonly DynamoDBRecord[]): Promise<DynamoDBBatchResponse> {
  const events: ItemToCount[] = [];
  const incidents: ItemToCount[] = [];
  /** Events that matched threat definitions, new or changed (linked to an incident): their threats are settled after counting. */
  const matched: { id: string; event: MatchedEvent }[] = [];
  const broken: string[] = [];
  /** New AIS events by tenant, in stream order. */
  const ais = new Map<string, { id: string; event: AisEvent }[]>();
  /** Events to keep in the mention index: new ones, and changed ones linked to an incident. */
  const mentioned: { id: string; event: StoredEvent; expiresAt: number }[] = [];
  /** New events by tenant, for the watchlist. */
  const fresh = new Map<string, { id: string; event: StoredEvent }[]>();
  for (const record of records) {
    const id = record.dynamodb?.SequenceNumber;
    const image = record.dynamodb?.NewImage;
    const entity = image?.entity?.S;
    if (!id || !image) continue;
    // The mapping's filter passes INSERTs and MODIFYs of both: an event counts when it is new only
    // (a MODIFY is it being marked processed or linked, which only its threats follow).
    if (entity !== 'EVENT' && entity !== 'INCIDENT') continue;
    try {
      // Lambda's AttributeValue (binary as base64 text) and the SDK's differ only in binary types,
      // which these items do not hold.
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (entity === 'INCIDENT') incidents.push({ id, item });
      else {
        if (record.eventName === 'INSERT') events.push({ id, item });
        const event = eventFromItem(item);
        if (record.eventName === 'INSERT' && AIS_EVENT_TYPES.includes(event.type)) ais.set(event.tenant_id, [...(ais.get(event.tenant_id) ?? []), { id, event }]);
        if (event.matched_signatures.length > 0) matched.push({ id, event });
        if (record.eventName === 'INSERT' || event.incident_id) mentioned.push({ id, event, expiresAt: Number(item.expires_at) || 0 });
        if (record.eventName === 'INSERT') fresh.set(event.tenant_id, [...(fresh.get(event.tenant_id) ?? []), { id, event }]);
      }
    } catch (error) {
      log.error('stream record could not be read', { sequence_number: id, err: error });
      broken.push(id);
    }
  }

  const [counted, moved] = await Promise.all([countEvents(events), countIncidents(incidents)]);
  // Threats of the events counted now or before: first and last seen, linked incidents (idempotent).
  const notCounted = new Set(counted.failed.map((f) => f.id));
  const settle = matched.filter((m) => !notCounted.has(m.id));
  const unsettled: string[] = [];
  try {
    await settleThreats(settle.map((m) => m.event));
  } catch (error) {
    log.error('could not settle threats', { records: settle.length, err: error });
    unsettled.push(...settle.map((m) => m.id));
  }
  // Vessels' tracks, a tenant at a time (idempotent: a retried record changes nothing more).
  const untracked: string[] = [];
  for (const [tenantId, list] of ais) {
    try {
      // The events' own tenant, stored with them.
      await trackTenant(systemTenant(tenantId), list.map((a) => a.event));
    } catch (error) {
      log.error('could not track vessels', { tenant_id: tenantId, records: list.length, err: error });
      untracked.push(...list.map((a) => a.id));
    }
  }
  // The mention index (idempotent puts: a retried record writes the same items).
  const unindexed: string[] = [];
  let mentionItems = 0;
  try {
    mentionItems = await indexMentions(mentioned);
  } catch (error) {
    log.error('could not index mentions', { records: mentioned.length, err: error });
    unindexed.push(...mentioned.map((m) => m.id));
  }
  // Watchlist alerts, a tenant at a time (once each: a guard per alert).
  const unwatched: string[] = [];
  let alerts = 0;
  for (const [tenantId, list] of fresh) {
    try {
      // The events' own tenant, stored with them.
      alerts += await raiseWatchlistAlerts(systemTenant(tenantId), list.map((f) => f.event));
    } catch (error) {
      log.error('could not raise watchlist alerts', { tenant_id: tenantId, records: list.length, err: error });
      unwatched.push(...list.map((f) => f.id));
    }
  }
  for (const failure of [...counted.failed, ...moved.failed]) {
    log.error('could not count for analytics', { sequence_number: failure.id, reason: failure.reason });
  }
  log.info('counted for analytics', {
    records: records.length,
    events_counted: counted.counted,
    events_seen_before: counted.skipped,
    incidents_moved: moved.counted,
    incidents_seen_before: moved.skipped,
    threat_events: settle.length,
    ais_events: [...ais.values()].reduce((n, l) => n + l.length, 0),
    mention_items: mentionItems,
    watchlist_alerts: alerts,
    failed: counted.failed.length + moved.failed.length + broken.length + unsettled.length + untracked.length + unindexed.length + unwatched.length,
  });
  const failedIds = new Set([...broken, ...unsettled, ...untracked, ...unindexed, ...unwatched, ...counted.failed.map((f) => f.id), ...moved.failed.map((f) => f.id)]);
  // In record order: Lambda resumes the shard from the first failed record.
  return {
    batchItemFailures: records.flatMap((r) => {
      const id = r.dynamodb?.SequenceNumber;
      return id && failedIds.has(id) ? [{ itemIdentifier: id }] : [];
    }),
  };
}

export const handler = withHeartbeat('count-analytics', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => countStreamRecords(event.Records));
