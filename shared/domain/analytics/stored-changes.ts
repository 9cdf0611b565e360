/**
 * What worker `count-analytics` does with a batch of the table's stream (functions/workers/
 * count-analytics.ts): the stored events' and incidents' new images in, five concerns out, each
 * idempotent so that a record coming again changes nothing more:
 *
 * - the analytics counters (../analytics-counting.ts): new EVENT items are counted; INCIDENT items,
 *   new or changed, move their contribution; each exactly once however often a record comes;
 * - the active threats (../threats.ts) of the events that matched threat definitions, new or changed
 *   (linked to an incident), settled once they are counted;
 * - the vessels' tracks (../vessels/tracker.ts) from new AIS events, per tenant, in the stream's order;
 * - the mention index of the threat score (../events/mention-index.ts): new events, and changed ones linked
 *   to an incident;
 * - watchlist alerts (../watchlist-touches.ts) for watched entities the new events touch;
 * - the incident list counts a change could not hold in its transaction (an incident joining or
 *   leaving many zones): a pending counts item inserted is applied, if the change's own step after
 *   its transaction did not (shared/db/incident-list-counts.ts), each delta once.
 *
 * The records whose part could not be done are answered as failed: the stream retries them and,
 * after the mapping's retries, sends them to the dead-letter queue; the others are not counted
 * again on the retry.
 */
import { eventFromItem, type StoredEvent } from '../../db/events.js';
import { applyPendingCounts, PENDING_COUNTS_ENTITY } from '../../db/incident-list-counts.js';
import { log } from '../../log.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import { countEvents, countIncidents, type ItemToCount } from './stream-counting.js';
import { indexMentions } from '../events/index.js';
import { settleThreats, type MatchedEvent } from '../threats/index.js';
import { AIS_EVENT_TYPES, trackTenant, type AisEvent } from '../vessels/index.js';
import { raiseWatchlistAlerts } from '../watchlist/index.js';

/** A stored item's change, as the stream's record carries it (its sequence number as `id`). */
export interface StoredChange {
  id: string;
  eventName: string;
  item: Record<string, unknown>;
}

/** Counts, tracks, indexes and watches the changes; answers the ids of those that failed, with why. */
export async function countStoredChanges(changes: readonly StoredChange[]): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  const fail = (ids: readonly string[], reason: string) => ids.forEach((id) => failed.set(id, reason));
  const events: ItemToCount[] = [];
  const incidents: ItemToCount[] = [];
  /** Events that matched threat definitions, new or changed (linked to an incident): their threats are settled after counting. */
  const matched: { id: string; event: MatchedEvent }[] = [];
  /** New AIS events by tenant, in stream order. */
  const ais = new Map<string, { id: string; event: AisEvent }[]>();
  /** Events to keep in the mention index: new ones, and changed ones linked to an incident. */
  const mentioned: { id: string; event: StoredEvent; expiresAt: number }[] = [];
  /** New events by tenant, for the watchlist. */
  const fresh = new Map<string, { id: string; event: StoredEvent }[]>();
  /** Pending list counts inserted (a change's own step applies them first, usually: then nothing is left). */
  const pendingCounts: { id: string; item: Record<string, unknown> }[] = [];
  for (const { id, eventName, item } of changes) {
    if (item.entity === PENDING_COUNTS_ENTITY) {
      if (eventName === 'INSERT') pendingCounts.push({ id, item });
      continue;
    }
    if (item.entity === 'INCIDENT') {
      incidents.push({ id, item });
      continue;
    }
    if (item.entity !== 'EVENT') continue;
    // An event counts when it is new only (a MODIFY is it being marked processed or linked, which
    // only its threats and mentions follow).
    const isNew = eventName === 'INSERT';
    let event: StoredEvent;
    try {
      event = eventFromItem(item);
    } catch (error) {
      log.error('stream record could not be read', { sequence_number: id, err: error });
      fail([id], 'not a stored event');
      continue;
    }
    if (isNew) events.push({ id, item });
    if (isNew && AIS_EVENT_TYPES.includes(event.type))
      ais.set(event.tenant_id, [...(ais.get(event.tenant_id) ?? []), { id, event }]);
    if (event.matched_signatures.length > 0) matched.push({ id, event });
    if (isNew || event.incident_id) mentioned.push({ id, event, expiresAt: Number(item.expires_at) || 0 });
    if (isNew) fresh.set(event.tenant_id, [...(fresh.get(event.tenant_id) ?? []), { id, event }]);
  }

  const [counted, moved] = await Promise.all([countEvents(events), countIncidents(incidents)]);
  for (const failure of [...counted.failed, ...moved.failed]) {
    log.error('could not count for analytics', { sequence_number: failure.id, reason: failure.reason });
    fail([failure.id], `not counted: ${failure.reason}`);
  }
  // Threats of the events counted now or before: first and last seen, linked incidents (idempotent).
  const notCounted = new Set(counted.failed.map((f) => f.id));
  const settle = matched.filter((m) => !notCounted.has(m.id));
  try {
    await settleThreats(settle.map((m) => m.event));
  } catch (error) {
    log.error('could not settle threats', { records: settle.length, err: error });
    fail(
      settle.map((m) => m.id),
      'threats not settled',
    );
  }
  // Vessels' tracks, a tenant at a time (idempotent: a retried record changes nothing more).
  for (const [tenantId, list] of ais) {
    try {
      // The events' own tenant, stored with them.
      await trackTenant(
        systemTenant(tenantId),
        list.map((a) => a.event),
      );
    } catch (error) {
      log.error('could not track vessels', { tenant_id: tenantId, records: list.length, err: error });
      fail(
        list.map((a) => a.id),
        'vessels not tracked',
      );
    }
  }
  // The mention index (idempotent puts: a retried record writes the same items).
  let mentionItems = 0;
  try {
    mentionItems = await indexMentions(mentioned);
  } catch (error) {
    log.error('could not index mentions', { records: mentioned.length, err: error });
    fail(
      mentioned.map((m) => m.id),
      'mentions not indexed',
    );
  }
  // Watchlist alerts, a tenant at a time (once each: a guard per alert).
  let alerts = 0;
  for (const [tenantId, list] of fresh) {
    try {
      // The events' own tenant, stored with them.
      alerts += await raiseWatchlistAlerts(
        systemTenant(tenantId),
        list.map((f) => f.event),
      );
    } catch (error) {
      log.error('could not raise watchlist alerts', { tenant_id: tenantId, records: list.length, err: error });
      fail(
        list.map((f) => f.id),
        'watchlist alerts not raised',
      );
    }
  }
  await Promise.all(
    pendingCounts.map(async ({ id, item }) => {
      try {
        await applyPendingCounts(String(item.tenant_id), String(item.incident_id), Number(item.version));
      } catch (error) {
        log.error('could not apply pending incident list counts', { sequence_number: id, err: error });
        fail([id], 'list counts not applied');
      }
    }),
  );
  log.info('counted for analytics', {
    records: changes.length,
    events_counted: counted.counted,
    events_seen_before: counted.skipped,
    incidents_moved: moved.counted,
    incidents_seen_before: moved.skipped,
    threat_events: settle.length,
    ais_events: [...ais.values()].reduce((n, l) => n + l.length, 0),
    mention_items: mentionItems,
    watchlist_alerts: alerts,
    pending_list_counts: pendingCounts.length,
    failed: failed.size,
  });
  return failed;
}
