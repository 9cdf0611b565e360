/**
 * Keeping the mention index (docs/threat-score.md): for each stored event, one item per entity it
 * names (shared/domain/events/mentions.ts) and one for the grid cell of its location, written by
 * the stream worker `count-analytics`. The threat score reads them for a target's history.
 *
 * Routine telemetry is left out unless it matched a threat definition: the types whose base weight
 * in scoring is at most ROUTINE_WEIGHT (sensor readings and heartbeats, AIS position and static
 * reports, granted access). It is most of the volume, it says nothing against the entity it names,
 * and one item per report would add a write to each (a vessel's reports are in the vessel store).
 * Watchlist alerts are left out too: they name the entity they alert on, and are not history of it.
 */
import { cellOf } from '../../db/vessels/index.js';
import { mentionItem, putMentions, type StoredMention } from '../../db/mentions.js';
import type { StoredEvent } from '../../db/events.js';
import { mentionsOf } from './mentions.js';
import { TYPE_WEIGHTS } from './scoring.js';

/** A type whose base weight is at most this is routine telemetry. */
export const ROUTINE_WEIGHT = 0.05;

/** Whether the index keeps an event: not an alert, and not routine telemetry that matched nothing. */
export function isIndexed(event: Pick<StoredEvent, 'type' | 'matched_signatures'>): boolean {
  if (event.type === 'watchlist.alert') return false;
  const weight = (TYPE_WEIGHTS as Record<string, number | undefined>)[event.type];
  return event.matched_signatures.length > 0 || weight === undefined || weight > ROUTINE_WEIGHT;
}

/** The index's items of one event (none for the events left out). */
export function mentionRecords(event: StoredEvent): StoredMention[] {
  if (!isIndexed(event)) return [];
  const common = {
    event_id: event.event_id,
    event_type: event.type,
    occurred_at: event.occurred_at,
    threat_score: event.threat_score,
    incident_id: event.incident_id,
    signatures: [...new Set(event.matched_signatures.map((m) => m.name))],
    zone_ids: event.matched_zone_ids,
    location: event.location,
  };
  const named = mentionsOf(event).map((m) => ({ kind: m.type, value: m.value, ...common }));
  return event.location
    ? [...named, { kind: 'cell', value: cellOf(event.location.lat, event.location.lon), ...common }]
    : named;
}

/**
 * Writes the index items of the events (idempotent: an event written again gives the same items).
 * A batch may hold an event twice (stored, then linked to its incident): its last image wins, as
 * one BatchWriteItem may not name a key twice.
 */
export async function indexMentions(events: readonly { event: StoredEvent; expiresAt: number }[]): Promise<number> {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const { event, expiresAt } of events) {
    for (const m of mentionRecords(event)) {
      const item = mentionItem(event.tenant_id, m, expiresAt);
      byKey.set(`${String(item.PK)}\u0000${String(item.SK)}`, item);
    }
  }
  if (byKey.size > 0) await putMentions([...byKey.values()]);
  return byKey.size;
}
