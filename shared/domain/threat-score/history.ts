/**
 * What the tenant's events say of a score's target (docs/threat-score.md): how many named it in
 * the window, the incidents they are linked to, those that matched threat definitions, when it was
 * last named and on how many recent days, and where the newest were. Read from the mention index
 * kept by the stream worker (shared/domain/events/mention-index.ts):
 *
 * - an IP, a domain, an MMSI, a sensor: the entity's day totals (pattern 48a, one Query of at most
 *   one small item a day) and its newest NEWEST_READ mentions (one Query): the same reads whether
 *   30 events named it or 3,000. The window starts at the first UTC midnight at or after
 *   max(now - historyDays, the plan's retention floor): whole days only;
 * - a location: the mentions of the grid cells within the behaviour distance, each one Query of at
 *   most historyLimit items, filtered by distance (a count kept per cell could not say which
 *   events lie within 2 km).
 */
import type { TenantId } from '../../vocabulary/tenant.js';
import { SCORE_RULES as R, type ScoreTargetType } from '../../vocabulary/threat-score.js';
import { timeOfId } from '../../ids.js';
import { mentionDays, mentionsSince, type StoredMention } from '../../db/mentions.js';
import { cellOf } from '../../db/vessels/index.js';
import { metresBetween } from '../../geo/distance.js';

interface Point {
  lat: number;
  lon: number;
}

/** The newest mentions of an entity read for when it was last named and where (the proximity factor's positions). */
export const NEWEST_READ = 20;
const DAY_MS = 86_400_000;

export interface History {
  /** Where the window starts (ISO). */
  from: string;
  events: number;
  incidents: number;
  /** Events that matched a threat definition. */
  matched: number;
  /** Events that matched a definition or are linked to an incident. */
  flagged: number;
  /** The definitions they matched, by name. */
  signatures: string[];
  /** When the newest occurred. */
  newest: string | null;
  /** Distinct UTC days of the last 30 on which events named it. */
  recentDays: number;
  /** The positions of the newest events naming it (at most NEWEST_READ). */
  points: Point[];
  /** Not every event naming it was read (a location's cells hold more than historyLimit). */
  truncated: boolean;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const located = (ms: readonly StoredMention[]) => ms.map((m) => m.location).filter((l): l is Point => l !== null);

/** The history of a target from `fromMs` on; of events received before `floorMs`, none. */
export async function historyOf(
  tenantId: TenantId,
  type: ScoreTargetType,
  key: string,
  point: Point | null,
  fromMs: number,
  floorMs: number,
  nowMs: number,
): Promise<History> {
  const kept = (ms: readonly StoredMention[]) => ms.filter((m) => timeOfId(m.event_id) >= floorMs);
  if (type === 'location') {
    const from = new Date(fromMs).toISOString();
    const near = await mentionsNear(tenantId, point!, from);
    return { from, ...summary(kept(near.mentions), nowMs), truncated: near.truncated };
  }
  // Whole UTC days: the first midnight at or after the window's start.
  const startMs = Math.ceil(fromMs / DAY_MS) * DAY_MS;
  const from = new Date(startMs).toISOString();
  const [days, newest] = await Promise.all([
    mentionDays(tenantId, type, key, dayOf(startMs)),
    mentionsSince(tenantId, type, key, from, NEWEST_READ),
  ]);
  const recentFrom = dayOf(nowMs - 30 * DAY_MS);
  const latest = kept(newest.mentions);
  return {
    from,
    events: days.reduce((n, d) => n + d.events, 0),
    incidents: new Set(days.flatMap((d) => d.incidents)).size,
    matched: days.reduce((n, d) => n + d.matched, 0),
    flagged: days.reduce((n, d) => n + d.flagged, 0),
    signatures: [...new Set(days.flatMap((d) => d.signatures))],
    newest: latest[0]?.occurred_at ?? null,
    recentDays: days.filter((d) => d.events > 0 && d.day >= recentFrom).length,
    points: located(latest).slice(0, NEWEST_READ),
    truncated: false,
  };
}

/** The history of mentions read one by one (newest first). */
function summary(events: readonly StoredMention[], nowMs: number): Omit<History, 'from' | 'truncated'> {
  return {
    events: events.length,
    incidents: new Set(events.map((m) => m.incident_id).filter(Boolean)).size,
    matched: events.filter((m) => m.signatures.length > 0).length,
    flagged: events.filter((m) => m.signatures.length > 0 || m.incident_id).length,
    signatures: [...new Set(events.flatMap((m) => m.signatures))],
    newest: events[0]?.occurred_at ?? null,
    recentDays: new Set(
      events.filter((m) => nowMs - Date.parse(m.occurred_at) <= 30 * DAY_MS).map((m) => m.occurred_at.slice(0, 10)),
    ).size,
    points: located(events).slice(0, NEWEST_READ),
  };
}

/** The events at a location: those in the grid cells within the behaviour distance, then by distance. */
async function mentionsNear(
  tenantId: TenantId,
  at: Point,
  from: string,
): Promise<{ mentions: StoredMention[]; truncated: boolean }> {
  const cells = new Set<string>();
  const dLat = R.episodeNearM / 111_320;
  const dLon = R.episodeNearM / (111_320 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  for (const lat of [at.lat - dLat, at.lat + dLat])
    for (const lon of [at.lon - dLon, at.lon + dLon]) cells.add(cellOf(lat, lon));
  const pages = await Promise.all([...cells].map((c) => mentionsSince(tenantId, 'cell', c, from, R.historyLimit)));
  const near = pages
    .flatMap((p) => p.mentions)
    .filter((m) => m.location && metresBetween(m.location, at) <= R.episodeNearM)
    .sort((a, b) => b.occurred_at.localeCompare(a.occurred_at));
  return { mentions: near, truncated: pages.some((p) => p.truncated) };
}
