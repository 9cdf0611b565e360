/**
 * The mention index (docs/threat-score.md): one small item per event and entity it names (and per
 * event and grid cell it fell in), kept by the stream worker `count-analytics` and read by the
 * threat score's history, recency and behaviour factors. A put is idempotent: the same event gives
 * the same item, so a retried stream batch writes nothing new. Items expire with their event.
 */
import { queryPage } from './query.js';
import { writeAll } from './events.js';
import { mentionKeys } from './mention-keys.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface StoredMention {
  /** `ip`, `domain`, `mmsi`, `sensor`, or `cell` (a grid cell of the event's location). */
  kind: string;
  value: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  threat_score: number | null;
  incident_id: string | null;
  /** The threat definitions the event matched, by name. */
  signatures: string[];
  zone_ids: string[];
  location: { lat: number; lon: number } | null;
}

export function mentionItem(tenantId: TenantId, m: StoredMention, expiresAt: number): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...m };
  for (const [k, v] of Object.entries(stored)) if (v === null || (Array.isArray(v) && v.length === 0)) delete stored[k];
  return {
    ...mentionKeys.mention(tenantId, m.kind, m.value, m.occurred_at, m.event_id),
    entity: 'MENTION',
    ...stored,
    ...(expiresAt > 0 ? { expires_at: expiresAt } : {}),
  };
}

/** Puts the items (idempotent), 25 to a batch. */
export const putMentions = (items: Record<string, unknown>[]): Promise<void> => writeAll(items);

const mentionFromItem = (i: Record<string, unknown>): StoredMention => ({
  kind: String(i.kind),
  value: String(i.value),
  event_id: String(i.event_id),
  event_type: String(i.event_type),
  occurred_at: String(i.occurred_at),
  threat_score: typeof i.threat_score === 'number' ? i.threat_score : null,
  incident_id: typeof i.incident_id === 'string' ? i.incident_id : null,
  signatures: Array.isArray(i.signatures) ? i.signatures.map(String) : [],
  zone_ids: Array.isArray(i.zone_ids) ? i.zone_ids.map(String) : [],
  location: i.location && typeof i.location === 'object' ? (i.location as { lat: number; lon: number }) : null,
});

/**
 * The events that named an entity (or fell in a grid cell) that occurred from `from` (until `to`,
 * an ISO time, when given), newest first, at most `limit` (one Query, and more pages only past
 * 1 MB); `truncated` when there were more.
 */
export async function mentionsSince(
  tenantId: TenantId,
  kind: string,
  value: string,
  from: string,
  limit: number,
  to?: string,
): Promise<{ mentions: StoredMention[]; truncated: boolean }> {
  const { PK } = mentionKeys.mention(tenantId, kind, value, '', '');
  // `<to>#~` sorts after every event id of that instant.
  const upper = to === undefined ? '~' : `${to}#~`;
  const items = await queryPage(
    { pk: PK, skBetween: [from, upper], ascending: false },
    { limit: limit + 1, offset: 0 },
  );
  return { mentions: items.slice(0, limit).map(mentionFromItem), truncated: items.length > limit };
}
