/**
 * The hazard feeds (docs/connectors.md, "Hazard alerts"): what a record of each means as a hazard.
 * Which records alert under a connector's settings, where each is (a point, or an area), how far
 * it reaches, how grave it is, and what its alert says. USGS earthquakes, GDACS events and NWS
 * alerts share everything else (hazard-places.ts, hazard-alerts.ts).
 */
import type { Polygon } from 'geojson';
import type { ConnectorSettings } from '../../db/connectors.js';
import type { GdacsAlertLevel, GdacsEventRecord, GdacsEventType } from '../../feeds/gdacs-events.js';
import type { NwsAlertRecord } from '../../feeds/nws-alerts.js';
import type { QuakeRecord } from '../../feeds/usgs-quakes.js';
import { HAZARD_FEEDS, type FeedName, type HazardFeed } from '../../schemas/feed-catalog.js';
import {
  DEFAULT_MIN_ALERT_LEVEL,
  DEFAULT_MIN_MAGNITUDE,
  DEFAULT_RADIUS_KM,
  GDACS_RADIUS_KM,
  NWS_DEFAULT_RADIUS_KM,
} from './feed-catalog.js';
import type { Hazard, HazardSite } from './hazard-places.js';

/** The catalog's hazard family (shared/schemas/feed-catalog.ts). */
export { HAZARD_FEEDS, type HazardFeed };
export const isHazardFeed = (feed: FeedName): feed is HazardFeed => (HAZARD_FEEDS as readonly string[]).includes(feed);

export interface HazardRecords {
  'usgs-quakes': QuakeRecord;
  gdacs: GdacsEventRecord;
  'nws-alerts': NwsAlertRecord;
}

/** How grave a hazard is, least first; an environment's level is its gravest hazard's. */
export const HAZARD_LEVELS = ['none', 'low', 'moderate', 'high', 'severe'] as const;
export type HazardLevel = (typeof HAZARD_LEVELS)[number];
export const graver = (a: HazardLevel, b: HazardLevel): HazardLevel =>
  HAZARD_LEVELS.indexOf(a) >= HAZARD_LEVELS.indexOf(b) ? a : b;

/** What an alert, or the risk route, says of a hazard. */
export interface HazardStory {
  /** `earthquake`, `tropical_cyclone`, `flood`, `volcano`, `drought`, `wildfire`, `tsunami`, `weather`. */
  hazard: string;
  occurred_at: string;
  title: string;
  level: HazardLevel;
  url: string | null;
  /** The feed's own fields, as the event's payload carries them. */
  details: Record<string, unknown>;
}

export interface HazardFeedDef<R> {
  /** The key of "once per hazard and environment": a record's id, or more when a revision should alert again. */
  key(r: R): string;
  /** Where it is, or null when it cannot be placed (an NWS alert without a polygon). */
  site(r: R): HazardSite | null;
  /** How far it reaches, unless the caller names a radius. */
  radiusKm(r: R, settings: Pick<ConnectorSettings, 'radius_km'>): number;
  /** Whether it alerts under the connector's settings at `nowMs` (of the magnitude or level, still in force). */
  alerts(r: R, settings: ConnectorSettings, nowMs: number): boolean;
  story(r: R): HazardStory;
  /**
   * The time the risk route reads a window of (an origin, an event's end, an alert's expiry), kept
   * in the records' time index; null leaves the record out of it (it can never be shown).
   */
  indexTime(r: R): string | null;
}

/** Earthquakes below this magnitude are kept but not indexed in time: the risk route never shows them (USGS's day holds hundreds of them). */
export const INDEXED_MIN_MAGNITUDE = 2.5;

const point = (r: { lat: number; lon: number }): HazardSite => ({ lat: r.lat, lon: r.lon, area: null });

const quakeLevel = (q: QuakeRecord): HazardLevel => {
  const m = q.magnitude ?? 0;
  const byMagnitude: HazardLevel = m >= 7 ? 'severe' : m >= 6 ? 'high' : m >= 5 ? 'moderate' : 'low';
  const byPager: HazardLevel =
    q.alert === 'red' ? 'severe' : q.alert === 'orange' ? 'high' : q.alert === 'yellow' ? 'moderate' : 'low';
  return graver(byMagnitude, byPager);
};

const quakes: HazardFeedDef<QuakeRecord> = {
  key: (q) => q.id,
  site: point,
  radiusKm: (_q, s) => s.radius_km ?? DEFAULT_RADIUS_KM,
  alerts: (q, s) => q.magnitude !== null && q.magnitude >= (s.min_magnitude ?? DEFAULT_MIN_MAGNITUDE),
  story: (q) => ({
    hazard: 'earthquake',
    occurred_at: q.time,
    title: `${q.magnitude === null ? 'An' : `An M${q.magnitude}`} earthquake${q.place ? ` (${q.place})` : ''}`,
    level: quakeLevel(q),
    url: q.url,
    details: {
      magnitude: q.magnitude,
      depth_km: q.depth_km,
      place: q.place,
      tsunami_flag: q.tsunami,
      pager_alert: q.alert,
    },
  }),
  indexTime: (q) => (q.magnitude !== null && q.magnitude >= INDEXED_MIN_MAGNITUDE ? q.time : null),
};

const GDACS_HAZARD: Record<GdacsEventType, string> = {
  EQ: 'earthquake',
  TC: 'tropical_cyclone',
  FL: 'flood',
  VO: 'volcano',
  DR: 'drought',
  WF: 'wildfire',
};
const GDACS_ORDER: readonly GdacsAlertLevel[] = ['green', 'orange', 'red'];
const GDACS_LEVEL: Record<GdacsAlertLevel, HazardLevel> = { green: 'low', orange: 'high', red: 'severe' };

const gdacs: HazardFeedDef<GdacsEventRecord> = {
  // An event raised to a graver level alerts again: GDACS revises an event's level by episodes.
  key: (e) => `${e.id}@${e.alert_level}`,
  site: point,
  radiusKm: (e, s) => s.radius_km ?? GDACS_RADIUS_KM[e.event_type],
  alerts: (e, s) =>
    e.current !== false &&
    GDACS_ORDER.indexOf(e.alert_level) >= GDACS_ORDER.indexOf(s.min_alert_level ?? DEFAULT_MIN_ALERT_LEVEL),
  story: (e) => ({
    hazard: GDACS_HAZARD[e.event_type],
    occurred_at: e.from,
    title: `${e.name ?? `A GDACS ${GDACS_HAZARD[e.event_type].replace('_', ' ')} event`} (GDACS ${e.alert_level})`,
    level: GDACS_LEVEL[e.alert_level],
    url: e.url,
    details: {
      event_type: e.event_type,
      alert_level: e.alert_level,
      episode_id: e.episode_id,
      severity: e.severity,
      country: e.country,
      from: e.from,
      to: e.to,
      current: e.current,
      provider: e.provider,
    },
  }),
  indexTime: (e) => e.to ?? e.from,
};

const NWS_LEVEL: Record<NwsAlertRecord['severity'], HazardLevel> = {
  Extreme: 'severe',
  Severe: 'high',
  Moderate: 'moderate',
  Minor: 'low',
  Unknown: 'low',
};

/** When an NWS alert stops being in force: its expiry (or, without one, the hazard's end); null when it says neither. */
export const nwsEnd = (a: NwsAlertRecord): string | null => a.expires ?? a.ends;

/** A representative point of an area: the mean of its outer ring's corners. */
function areaSite(area: Polygon): HazardSite {
  const ring = area.coordinates[0]!.slice(0, -1);
  return {
    lon: ring.reduce((s, p) => s + p[0]!, 0) / ring.length,
    lat: ring.reduce((s, p) => s + p[1]!, 0) / ring.length,
    area,
  };
}

/** An actual alert or update (not a test, an exercise, a cancellation), placed by a polygon, with an end: one the risk route can show. */
const inForceWhen = (a: NwsAlertRecord): string | null =>
  a.polygon && a.status === 'Actual' && (a.message_type === 'Alert' || a.message_type === 'Update') ? nwsEnd(a) : null;

const nws: HazardFeedDef<NwsAlertRecord> = {
  key: (a) => a.id,
  site: (a) => (a.polygon ? areaSite(a.polygon) : null),
  radiusKm: (_a, s) => s.radius_km ?? NWS_DEFAULT_RADIUS_KM,
  alerts: (a, _s, nowMs) => {
    const end = inForceWhen(a);
    return end !== null && Date.parse(end) > nowMs;
  },
  indexTime: inForceWhen,
  story: (a) => ({
    hazard: a.tsunami ? 'tsunami' : 'weather',
    occurred_at: a.onset ?? a.effective,
    title: a.headline ?? a.event,
    level: NWS_LEVEL[a.severity],
    url: a.url,
    details: {
      event: a.event,
      tsunami: a.tsunami,
      severity: a.severity,
      urgency: a.urgency,
      certainty: a.certainty,
      message_type: a.message_type,
      effective: a.effective,
      expires: a.expires,
      ends: a.ends,
      area_desc: a.area_desc,
      sender_name: a.sender_name,
    },
  }),
};

export const HAZARD_FEED_DEFS: { [F in HazardFeed]: HazardFeedDef<HazardRecords[F]> } = {
  'usgs-quakes': quakes,
  gdacs,
  'nws-alerts': nws,
};

/** The records of a poll that alert under the connector's settings, placed. */
export function alertingHazards<F extends HazardFeed>(
  feed: F,
  records: readonly HazardRecords[F][],
  settings: ConnectorSettings,
  nowMs: number,
): Hazard<HazardRecords[F]>[] {
  const def: HazardFeedDef<HazardRecords[F]> = HAZARD_FEED_DEFS[feed];
  return records.flatMap((r) => {
    const site = def.alerts(r, settings, nowMs) ? def.site(r) : null;
    return site ? [{ record: r, key: def.key(r), site, radiusKm: def.radiusKm(r, settings) }] : [];
  });
}

/** The time index of a hazard feed's records, for storing them (shared/db/feed-records.ts). */
export function hazardIndexTime(feed: HazardFeed): (record: { id: string }) => string | null {
  const def = HAZARD_FEED_DEFS[feed] as HazardFeedDef<{ id: string }>;
  return (record) => def.indexTime(record);
}
