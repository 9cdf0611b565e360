/**
 * What the stream worker raises for the watchlist (docs/watchlist.md): for each new event of a
 * tenant, an alert per watched entity it names (its MMSI, IPs, domains); for each AIS position, an
 * alert when the vessel is watched or the position is within WATCH_LINE_DISTANCE_M of a watched
 * line (once an hour per entry and vessel). Alerts are not raised by alerts, and a tenant with an
 * empty watchlist costs one read of its revision.
 */
import type { StoredEvent } from '../../db/events.js';
import { mmsiOf, mentionsOf } from '../events/index.js';
import { timeOfId } from '../../ids.js';
import { hourBucket, raiseAlerts, type AlertTouch } from './alerts.js';
import { watchlistOf } from './view.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Raises the alerts of one tenant's new events; the number raised. */
export async function raiseWatchlistAlerts(tenantId: TenantId, events: readonly StoredEvent[]): Promise<number> {
  const candidates = events.filter((e) => e.type !== 'watchlist.alert' && e.type !== 'ais.static');
  if (candidates.length === 0) return 0;
  const watch = await watchlistOf(tenantId);
  if (watch.size === 0) return 0;
  const touches: AlertTouch[] = [];
  for (const e of candidates) {
    const atMs = Date.parse(e.occurred_at);
    const idTimeMs = timeOfId(e.event_id);
    if (e.type === 'ais.position') {
      const mmsi = mmsiOf(e.payload);
      if (!mmsi || !e.location || e.payload.ais_error) continue;
      for (const hit of watch.position({ mmsi, lat: e.location.lat, lon: e.location.lon })) {
        touches.push({
          hit,
          trigger: 'position',
          subject:
            hit.entity_type === 'vessel'
              ? `a position report of vessel ${mmsi}`
              : `vessel ${mmsi} ${hit.distance_m} m from the line`,
          atMs,
          idTimeMs,
          bucket: `${mmsi}:${hourBucket(atMs)}`,
          location: e.location,
          environmentId: e.environment_id,
          details: {
            mmsi,
            event_id: e.event_id,
            ...(hit.distance_m !== undefined ? { distance_m: hit.distance_m } : {}),
          },
        });
      }
      continue;
    }
    for (const { hit, mention } of watch.mentions(mentionsOf(e))) {
      touches.push({
        hit,
        trigger: 'event',
        subject: `event ${e.event_id} (${e.type}) naming ${mention.type} ${mention.value}`,
        atMs,
        idTimeMs,
        bucket: e.event_id,
        location: e.location,
        environmentId: e.environment_id,
        details: { event_id: e.event_id, event_type: e.type, mention },
      });
    }
  }
  return touches.length > 0 ? raiseAlerts(tenantId, touches) : 0;
}
