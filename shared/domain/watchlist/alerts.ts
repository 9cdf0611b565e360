/**
 * Watchlist alerts (docs/watchlist.md): when an event names a watched entity, a vessel's position
 * report is of a watched vessel or near a watched line, or a threat score touches a watched entity,
 * an alert is raised: an event of type `watchlist.alert`, carried to the bus by the outbox and
 * stored by the `vessel-announcer` worker like any event, so the event list, the live stream,
 * webhooks, workflows, threat definitions and scoring all see it.
 *
 * Once each: an alert is named by its entry, its trigger and a bucket (the touching event; the
 * hour of a position or a score), and a guard item keeps a second touch in the same bucket from
 * sending it again. Its event id is derived from them and the touch's receipt time, so a retried
 * stream record sends the same event, which is stored once.
 */
import { announceAlertOnce } from '../../db/watchlist/index.js';
import { derivedTimeId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { EventInput } from '../events/index.js';
import type { WatchHit } from './view.js';

export type AlertTrigger = 'event' | 'position' | 'score';

export interface AlertTouch {
  hit: WatchHit;
  trigger: AlertTrigger;
  /** What touched it, in words: `event 0190…`, `vessel 235009802`, `threat score of ip 203.0.113.9`. */
  subject: string;
  /** When it happened (ms): the alert's `occurred_at`. */
  atMs: number;
  /**
   * The time its event id carries (ms): the touching event's receipt (the time of its id), or the
   * score's request. Ingest takes ids up to a day old, and events may report older times.
   */
  idTimeMs: number;
  /** The touching event's id (event), the MMSI and hour (position), the target and hour (score). */
  bucket: string;
  location?: { lat: number; lon: number } | null;
  environmentId?: string | null;
  /** What the alert's payload adds: the triggering event, the distance to a line, the score. */
  details: Record<string, unknown>;
}

const HOUR_MS = 3_600_000;
/** The hour bucket of a time: `2026-11-25T05`. */
export const hourBucket = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13);

/** The event that announces an alert; its id is the same for the same entry, trigger and bucket. */
export function alertEvent(tenantId: TenantId, t: AlertTouch): EventInput {
  return {
    event_id: derivedTimeId(t.idTimeMs, `${tenantId}/watchlist/${t.hit.entry_id}/${t.trigger}/${t.bucket}`, 0),
    type: 'watchlist.alert',
    source: 'api',
    ...(t.environmentId ? { environment_id: t.environmentId } : {}),
    occurred_at: new Date(t.atMs).toISOString(),
    ...(t.location ? { location: t.location } : {}),
    description: `Watched ${t.hit.entity_type} ${t.hit.label} touched by ${t.subject}`,
    payload: {
      entry_id: t.hit.entry_id,
      entity_type: t.hit.entity_type,
      value: t.hit.value,
      label: t.hit.label,
      trigger: t.trigger,
      subject: t.subject,
      ...t.details,
    },
  };
}

/** Raises each touch's alert unless it was raised before; the number raised now. */
export async function raiseAlerts(tenantId: TenantId, touches: readonly AlertTouch[]): Promise<number> {
  const unique = new Map<string, AlertTouch>();
  for (const t of touches) {
    const key = `${t.hit.entry_id}#${t.trigger}#${t.bucket}`;
    if (!unique.has(key)) unique.set(key, t);
  }
  let raised = 0;
  for (const t of unique.values()) {
    const event = alertEvent(tenantId, t);
    if (await announceAlertOnce(tenantId, { entryId: t.hit.entry_id, trigger: t.trigger, bucket: t.bucket }, event))
      raised++;
  }
  return raised;
}
