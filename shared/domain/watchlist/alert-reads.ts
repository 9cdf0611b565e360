/**
 * Listing watchlist alerts (docs/watchlist.md): the tenant's `watchlist.alert` events, newest
 * first, from the events' type index (one Query), filtered by entry, entity type or trigger on
 * the events' payload, and shaped for the watchlist. An `entry_id` that is not the tenant's is 404.
 * Alerts are events: only those the tenant's plan still keeps are shown (docs/plans.md).
 */
import { listEvents, type StoredEvent } from '../../db/events.js';
import type { PageRequest } from '../../db/query.js';
import { getWatchlistEntry } from '../../db/watchlist/index.js';
import { invalid, NotFoundError } from '../../errors.js';
import { timeIdBound } from '../../ids.js';
import type { TenantPlan } from '../../vocabulary/plans.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { WATCHLIST_ENTRY_NOT_FOUND } from '../../vocabulary/watchlist.js';
import { retentionFloorMs } from '../accounts/index.js';

export interface AlertFilter {
  entry_id?: string;
  entity_type?: string;
  trigger?: string;
  start_date?: string;
  end_date?: string;
}

const RESERVED = new Set(['entry_id', 'entity_type', 'value', 'label', 'trigger', 'subject']);

export function alertOf(e: StoredEvent) {
  const p = e.payload;
  return {
    alert_id: e.event_id,
    entry_id: String(p.entry_id),
    entity_type: String(p.entity_type),
    value: String(p.value),
    label: String(p.label),
    trigger: String(p.trigger),
    subject: String(p.subject),
    occurred_at: e.occurred_at,
    location: e.location,
    environment_id: e.environment_id,
    threat_score: e.threat_score,
    incident_id: e.incident_id,
    details: Object.fromEntries(Object.entries(p).filter(([k]) => !RESERVED.has(k))),
  };
}

export async function listWatchlistAlerts(
  tenantId: TenantId,
  filter: AlertFilter,
  page: PageRequest,
  plan: TenantPlan,
  nowMs = Date.now(),
) {
  const asked = filter.start_date ? Date.parse(filter.start_date) : undefined;
  const to = filter.end_date ? Date.parse(filter.end_date) : undefined;
  if (asked !== undefined && to !== undefined && asked > to)
    throw invalid(['query', 'end_date'], 'must not be before start_date');
  // Not before what the plan keeps: a range wholly older reads no alerts at all.
  const floor = retentionFloorMs(plan, nowMs);
  const from = floor === null ? asked : Math.max(asked ?? floor, floor);
  const payloadEquals = Object.fromEntries(
    (['entry_id', 'entity_type', 'trigger'] as const).flatMap((f) => (filter[f] !== undefined ? [[f, filter[f]]] : [])),
  );
  const result =
    from !== undefined && to !== undefined && from > to
      ? { events: [], readLimitReached: false }
      : await listEvents(
          tenantId,
          {
            type: 'watchlist.alert',
            payloadEquals,
            // When an alert was raised is the time of its event's id (the touching event's receipt, or
            // the score's request), not the time the touching event reports (which may be days older).
            fromId: from !== undefined ? timeIdBound(from, 'low') : undefined,
            toId: to !== undefined ? timeIdBound(to, 'high') : undefined,
          },
          page,
        );
  // An entry that is not the tenant's is answered as the unknown it is; a page with its alerts
  // shows it is the tenant's without a read (a removed entry's alerts stay listable).
  if (result.events.length === 0 && filter.entry_id && !(await getWatchlistEntry(tenantId, filter.entry_id)))
    throw new NotFoundError(WATCHLIST_ENTRY_NOT_FOUND);
  return { alerts: result.events.map(alertOf), readLimitReached: result.readLimitReached };
}
