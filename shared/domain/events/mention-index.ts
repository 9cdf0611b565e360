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
import { applyGuarded, type GuardedWrite } from '../../db/analytics.js';
import {
  mentionDayAdd,
  mentionItem,
  mentionPut,
  putMentions,
  restampMention,
  type MentionCounted,
  type StoredMention,
} from '../../db/mentions.js';
import type { StoredEvent } from '../../db/events.js';
import { forEachEventPageSince } from '../../db/event-history.js';
import type { TenantId } from '../../vocabulary/tenant.js';
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

/** Whether a mention counts in its entity's day totals (pattern 48a): an entity's do, a grid cell's not (a location's score reads its cells' mentions). */
const totalled = (m: StoredMention) => m.kind !== 'cell';

/**
 * Writes the index items of the events, and adds each entity's to its day totals exactly once
 * (idempotent: an event written again gives the same items and adds nothing). An entity's item is
 * the guard of its totals: put with `counted` in one transaction with what it adds (`n` its event,
 * `i` its incident too), refused when the totals hold it already; an event linked to its incident
 * later adds only the link. A grid cell's item is put as it is. A batch may hold an event twice
 * (stored, then linked to its incident): its last image wins, as one write may not name a key twice.
 */
export async function indexMentions(events: readonly { event: StoredEvent; expiresAt: number }[]): Promise<number> {
  const byKey = new Map<
    string,
    { mention: StoredMention; tenantId: StoredEvent['tenant_id']; item: Record<string, unknown> }
  >();
  for (const { event, expiresAt } of events) {
    for (const m of mentionRecords(event)) {
      const item = mentionItem(event.tenant_id, m, expiresAt);
      byKey.set(`${String(item.PK)}\u0000${String(item.SK)}`, { mention: m, tenantId: event.tenant_id, item });
    }
  }
  const cells = [...byKey.values()].filter((w) => !totalled(w.mention)).map((w) => w.item);
  if (cells.length > 0) await putMentions(cells);
  const guarded = (ids: readonly string[], from: MentionCounted | null): GuardedWrite[] =>
    ids.map((id) => {
      const { mention, tenantId, item } = byKey.get(id)!;
      const to: MentionCounted = mention.incident_id ? 'i' : 'n';
      return { id, guard: mentionPut(item, from, to), counters: [mentionDayAdd(tenantId, mention, from, to)] };
    });
  // First as new to the totals; then those refused that bring their incident, as counted without it.
  const first = await applyGuarded(
    guarded(
      [...byKey].filter(([, w]) => totalled(w.mention)).map(([id]) => id),
      null,
    ),
  );
  const linking = first.refused.filter((id) => byKey.get(id)!.mention.incident_id);
  const second = linking.length > 0 ? await applyGuarded(guarded(linking, 'n')) : { applied: [], failed: [] };
  const failed = [...first.failed, ...second.failed];
  if (failed.length > 0) throw failed[0]!.error;
  return cells.length + first.applied.length + second.applied.length;
}

/** Gives the index items of the events their new TTL (a plan change), 25 at a time. */
export async function restampMentions(events: readonly { event: StoredEvent; expiresAt: number }[]): Promise<void> {
  const items = events.flatMap(({ event, expiresAt }) =>
    mentionRecords(event).map((m) => ({ item: mentionItem(event.tenant_id, m, expiresAt), expiresAt })),
  );
  for (let i = 0; i < items.length; i += 25)
    await Promise.all(items.slice(i, i + 25).map(({ item, expiresAt }) => restampMention(item, expiresAt)));
}

/**
 * Puts the tenant's events received since `sinceMs` through the indexing again
 * (bin/backfill-mention-days.ts): the day totals count what they lack (mention items written before
 * them), and nothing twice. Answers how many items were written.
 */
export async function backfillMentionDays(tenantId: TenantId, sinceMs: number): Promise<number> {
  let written = 0;
  await forEachEventPageSince(tenantId, sinceMs, async (events) => {
    written += await indexMentions(events);
  });
  return written;
}
