/**
 * Hazard alerts (docs/connectors.md): a record a tenant's hazard connector reads (a USGS
 * earthquake, a GDACS event, an NWS alert) that alerts under its settings (hazard-feeds.ts) and is
 * near one of the tenant's environments (their reference point) or infrastructure lines
 * (hazard-places.ts) raises a `hazard.alert` event for that environment (the line's environment
 * for a line), at its nearest place.
 *
 * Once each: an alert is named by the connector, the hazard and the environment, and a guard item
 * written with the outbox message that carries the event (shared/db/announce-once.ts) keeps a
 * re-poll, or a poll retried after a failure, from raising it again; the `vessel-announcer`
 * worker stores the event like any other. Every poll checks every record it read, not only the new
 * ones, so an alert whose write failed is raised by the next poll.
 */
import { announceOnce } from '../../db/announce-once.js';
import type { ConnectorSettings } from '../../db/connectors.js';
import { tenantPk } from '../../db/keys.js';
import { derivedTimeId } from '../../ids.js';
import { CONNECTORS_SOURCE, HAZARD_FOUND } from '../../vocabulary/bus.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { EventInput } from '../../schemas/events.js';
import {
  alertingHazards,
  HAZARD_FEED_DEFS,
  type HazardFeed,
  type HazardFeedDef,
  type HazardRecords,
  type HazardStory,
} from './hazard-feeds.js';
import { hazardsNear, tenantPlaces, type HazardMatch } from './hazard-places.js';

/** A guard outlives a record's stay in the feeds (a day's quakes, GDACS's current events, an alert in force). */
const GUARD_DAYS = 10;

/** A hazard near an environment, with what its alert says. */
export interface HazardAlert extends Omit<HazardMatch<unknown>, 'record' | 'radiusKm'> {
  feed: HazardFeed;
  record_id: string;
  story: HazardStory;
}

/** The records of a poll that alert: under the settings, near an environment or a line (the nearest place of each environment). */
export async function hazardAlerts<F extends HazardFeed>(
  tenantId: TenantId,
  feed: F,
  records: readonly HazardRecords[F][],
  settings: ConnectorSettings,
  nowMs: number,
): Promise<HazardAlert[]> {
  const def: HazardFeedDef<HazardRecords[F]> = HAZARD_FEED_DEFS[feed];
  const hazards = alertingHazards(feed, records, settings, nowMs);
  if (hazards.length === 0) return [];
  const matches = await hazardsNear(await tenantPlaces(tenantId), hazards);
  return matches.map(({ record, key, site, place, distance_km }) => ({
    feed,
    key,
    site,
    place,
    distance_km,
    record_id: record.id,
    story: def.story(record),
  }));
}

/** Where an alert is: an epicentre or a centroid; for an area, the place it covers or comes nearest to. */
const alertLocation = (a: HazardAlert) =>
  a.site.area ? { lat: a.place.lat, lon: a.place.lon } : { lat: a.site.lat, lon: a.site.lon };

/** The event that announces an alert; `atMs` (the poll that raised it) is the time its id carries. */
export function hazardEvent(tenantId: TenantId, connectorId: string, a: HazardAlert, atMs: number): EventInput {
  const { story, place } = a;
  const where =
    a.distance_km === 0
      ? place.kind === 'line'
        ? 'over the line '
        : 'over '
      : `${a.distance_km} km from ${place.kind === 'line' ? 'the line ' : ''}`;
  return {
    event_id: derivedTimeId(atMs, `${tenantId}/hazard/${connectorId}/${a.key}/${place.environment_id}`, 0),
    type: 'hazard.alert',
    source: 'api',
    environment_id: place.environment_id,
    occurred_at: story.occurred_at,
    location: alertLocation(a),
    description: `${story.title} ${where}${place.name}`,
    payload: {
      hazard: story.hazard,
      feed: a.feed,
      connector_id: connectorId,
      record_id: a.record_id,
      level: story.level,
      distance_km: a.distance_km,
      near: { kind: place.kind, id: place.id, name: place.name },
      ...story.details,
      url: story.url,
    },
  };
}

/** Raises each alert unless it was raised before; the number raised now. */
export async function raiseHazardAlerts(
  tenantId: TenantId,
  connectorId: string,
  alerts: readonly HazardAlert[],
  atMs: number,
): Promise<number> {
  let raised = 0;
  for (const a of alerts) {
    if (
      await announceHazardOnce(
        tenantId,
        `${connectorId}#${a.key}#${a.place.environment_id}`,
        GUARD_DAYS,
        hazardEvent(tenantId, connectorId, a, atMs),
        atMs,
      )
    )
      raised++;
  }
  return raised;
}

/**
 * A `hazard.alert` event sent to the bus (`hazard.alert_found`, for the announcer to store) unless
 * the tenant's hazard guard `guardKey` says it was before (data-model pattern 51b); true when sent
 * now. Hazards and travel advisories (advisory-alerts.ts) alike.
 */
export function announceHazardOnce(
  tenantId: TenantId,
  guardKey: string,
  guardDays: number,
  event: EventInput,
  atMs: number,
): Promise<boolean> {
  const guard = { PK: `${tenantPk(tenantId)}#HAZARDS`, SK: guardKey, entity: 'HAZARDGUARD', guardDays };
  return announceOnce(tenantId, guard, { source: CONNECTORS_SOURCE, detailType: HAZARD_FOUND }, event, atMs);
}
