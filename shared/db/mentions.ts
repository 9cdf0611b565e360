/**
 * The mention index (docs/threat-score.md): one small item per event and entity it names (and per
 * event and grid cell it fell in), kept by the stream worker `count-analytics` and read by the
 * threat score's history, recency and behaviour factors. A put is idempotent: the same event gives
 * the same item, so a retried stream batch writes nothing new. Items expire with their event.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterAdd } from './analytics.js';
import { db, TABLE } from './client.js';
import { queryPage } from './query.js';
import { writeAll } from './events.js';
import { mentionKeys } from './mention-keys.js';
import type { TransactItem } from './transact.js';
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

// ---------------------------------------------------------------------------------------------
// The day totals (pattern 48a): what the score's history, recency and behaviour read, a fixed
// number of small items whatever the number of events naming the target.

/**
 * What a mention item says the day totals hold of it (`counted`): `n` its event (1 event, 1 if it
 * matched a definition, 1 flagged if it did), `i` that and its incident (flagged, and the incident
 * named). Absent: nothing yet (an item written before the totals, or not written).
 */
export type MentionCounted = 'n' | 'i';

/** Day totals outlive the score's 90-day window (they are read no further back): then TTL takes them. */
export const MENTION_DAY_SECONDS = 92 * 86_400;

/**
 * What one mention adds to its day's totals: moving from `from` (nothing, or counted without its
 * incident) to `to`. Numbers are ADDed; the incident and the definitions matched are attribute
 * names (`i#<incident id>`, `g#<name>`) SET to 1, so writing one again changes nothing.
 */
export function mentionDayAdd(
  tenantId: TenantId,
  m: StoredMention,
  from: MentionCounted | null,
  to: MentionCounted,
): CounterAdd {
  const day = m.occurred_at.slice(0, 10);
  const matched = m.signatures.length > 0;
  const linked = to === 'i' && m.incident_id !== null;
  const add: Record<string, number> =
    from === null ? { n: 1, sig: matched ? 1 : 0, fl: matched || linked ? 1 : 0 } : { fl: matched ? 0 : 1 };
  const set: Record<string, unknown> = {
    entity: 'MENTION_DAY',
    expires_at: Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + MENTION_DAY_SECONDS,
  };
  if (linked) set[`i#${m.incident_id}`] = 1;
  if (from === null) for (const name of m.signatures) set[`g#${name}`] = 1;
  return { key: mentionKeys.mentionDay(tenantId, m.kind, m.value, day), add, set };
}

/**
 * The guard of a mention's totals: its item put with `counted = to`, if the item says the totals
 * hold `from` of it (nothing: no item, or one written before the totals).
 */
export function mentionPut(
  item: Record<string, unknown>,
  from: MentionCounted | null,
  to: MentionCounted,
): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...item, counted: to },
      ...(from === null
        ? { ConditionExpression: 'attribute_not_exists(counted)' }
        : {
            ConditionExpression: 'counted = :from',
            ExpressionAttributeValues: { ':from': from },
          }),
    },
  };
}

/** A day's totals of the events naming an entity. */
export interface MentionDay {
  day: string;
  /** Events (that the index keeps: not routine telemetry that matched nothing). */
  events: number;
  /** Of them, those that matched a threat definition. */
  matched: number;
  /** Of them, those that matched a definition or are linked to an incident. */
  flagged: number;
  incidents: string[];
  /** The threat definitions they matched, by name. */
  signatures: string[];
}

/**
 * The day totals of an entity from `fromDay` (`YYYY-MM-DD`) on: one Query, at most one item a day
 * (92 in the score's window), eventually consistent.
 */
export async function mentionDays(
  tenantId: TenantId,
  kind: string,
  value: string,
  fromDay: string,
): Promise<MentionDay[]> {
  const { PK, SK } = mentionKeys.mentionDay(tenantId, kind, value, '');
  const items = await queryPage({ pk: PK, skBetween: [`${SK}${fromDay}`, `${SK}~`] }, { limit: 1000, offset: 0 });
  const named = (i: Record<string, unknown>, prefix: string) =>
    Object.keys(i)
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length));
  return items.map((i) => ({
    day: String(i.SK).slice(SK.length),
    events: Number(i.n ?? 0),
    matched: Number(i.sig ?? 0),
    flagged: Number(i.fl ?? 0),
    incidents: named(i, 'i#'),
    signatures: named(i, 'g#'),
  }));
}

/**
 * Gives the mention items of an event its new TTL (a plan change), keeping what else they hold;
 * an item not written yet stays unwritten (the stream worker writes it with the event's TTL).
 */
export async function restampMention(item: Record<string, unknown>, expiresAt: number): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'SET expires_at = :e',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':e': expiresAt },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}
