/**
 * Keeping the mention index (docs/threat-score.md): for each stored event, one item per entity it
 * names (shared/domain/entity-mentions.ts) and one for the grid cell of its location, written by
 * the stream worker `count-analytics`. The threat score reads them for a target's history.
 *
 * AIS position and static reports are left out: the vessel store keeps them (a vessel's track),
 * and one item per report would double their cost. Watchlist alerts are left out too: they name
 * the entity they alert on, and are not history of it.
 */
import { cellOf } from '../db/vessels.js';
import { mentionItem, putMentions, type StoredMention } from '../db/mentions.js';
import type { StoredEvent } from '../db/events.js';
import { mentionsOf } from './entity-mentions.js';

/** Event types the index leaves out. */
export const UNINDEXED_TYPES: ReadonlySet<string> = new Set(['ais.position', 'ais.static', 'watchlist.alert']);

/** The index's items of one event (none for the types left out). */
export function mentionRecords(event: StoredEvent): StoredMention[] {
  if (UNINDEXED_TYPES.has(event.type)) return [];
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
  return event.location ? [...named, { kind: 'cell', value: cellOf(event.location.lat, event.location.lon), ...common }] : named;
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
