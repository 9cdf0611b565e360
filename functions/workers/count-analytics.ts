/**
 * Worker `count-analytics` (shared/workers.ts): the table's stream in, the analytics counters,
 * the active threats and the vessels' tracks out (shared/domain/analytics-counting.ts,
 * shared/domain/threats.ts, shared/domain/vessels/tracker.ts), each event and each incident change
 * counted exactly once however often a record comes; new AIS events are tracked per tenant, in
 * the stream's order. New EVENT items are counted; INCIDENT items, new or changed,
 * move their contribution. Records whose counters could not be written are reported as batch item
 * failures, so Lambda retries them and, after the mapping's retries, sends them to the dead-letter
 * queue; the records before them that were counted are not counted again on the retry.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { countEvents, countIncidents, type ItemToCount } from '../../shared/domain/analytics-counting.js';
import { eventFromItem } from '../../shared/db/events.js';
import { settleThreats, type MatchedEvent } from '../../shared/domain/threats.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';
import { AIS_EVENT_TYPES } from '../../shared/domain/vessels/ais-input.js';
import { trackTenant, type AisEvent } from '../../shared/domain/vessels/tracker.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

/** Counts the records' new images; the response names the records that failed, in record order. */
export async function countStreamRecords(records: readonly DynamoDBRecord[]): Promise<DynamoDBBatchResponse> {
  const events: ItemToCount[] = [];
  const incidents: ItemToCount[] = [];
  /** Events that matched threat definitions, new or changed (linked to an incident): their threats are settled after counting. */
  const matched: { id: string; event: MatchedEvent }[] = [];
  const broken: string[] = [];
  /** New AIS events by tenant, in stream order. */
  const ais = new Map<string, { id: string; event: AisEvent }[]>();
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
    failed: counted.failed.length + moved.failed.length + broken.length + unsettled.length + untracked.length,
  });
  const failedIds = new Set([...broken, ...unsettled, ...untracked, ...counted.failed.map((f) => f.id), ...moved.failed.map((f) => f.id)]);
  // In record order: Lambda resumes the shard from the first failed record.
  return {
    batchItemFailures: records.flatMap((r) => {
      const id = r.dynamodb?.SequenceNumber;
      return id && failedIds.has(id) ? [{ itemIdentifier: id }] : [];
    }),
  };
}

export const handler = withHeartbeat('count-analytics', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => countStreamRecords(event.Records));
