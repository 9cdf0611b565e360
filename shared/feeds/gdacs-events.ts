/**
 * GDACS (Global Disaster Alert and Coordination System) events, parsed from the GeoJSON its API
 * returns (https://www.gdacs.org/gdacsapi/, event lists EVENTS4APP, SEARCH, eventsbyarea): a
 * FeatureCollection, one Point feature per event (its centroid) whose properties carry the event
 * type (EQ, TC, FL, VO, DR, WF), ids, alert level (Green, Orange, Red), dates (UTC without a zone),
 * countries and a severity. docs/feeds.md shows a real entry.
 */
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';

export const GDACS_EVENTS_URL = 'https://www.gdacs.org/gdacsapi/api/events/geteventlist/EVENTS4APP';
/** EVENTS4APP returns the current events (tens to about a hundred, a few hundred KB); SEARCH pages at 100. */
export const GDACS_EVENTS_MAX_BYTES = 8 * 1024 * 1024;
export const GDACS_EVENTS_DESCRIPTION =
  'GDACS current disaster events worldwide (earthquakes, tropical cyclones, floods, volcanoes, droughts, wildfires): type, GDACS alert level (green, orange, red), position, dates, countries, severity. Credit "Global Disaster Alert and Coordination System, GDACS".';

export const GDACS_EVENT_TYPES = ['EQ', 'TC', 'FL', 'VO', 'DR', 'WF'] as const;
export type GdacsEventType = (typeof GDACS_EVENT_TYPES)[number];
export type GdacsAlertLevel = 'green' | 'orange' | 'red';
const LEVELS: readonly string[] = ['green', 'orange', 'red'];

export interface GdacsEventRecord {
  /** `gdacs-<type>-<eventid>`: one record per event; a new episode (GDACS's revision) keeps the id. */
  id: string;
  event_type: GdacsEventType;
  event_id: number;
  /** GDACS's revision of the event; a higher one on a re-poll is an update. */
  episode_id: number | null;
  name: string | null;
  /** The event's overall alert level; `episode_alert_level` is the latest episode's alone. */
  alert_level: GdacsAlertLevel;
  alert_score: number | null;
  episode_alert_level: GdacsAlertLevel | null;
  /** Start and end as ISO 8601 UTC (an earthquake starts and ends at its origin time). */
  from: string;
  to: string | null;
  modified: string | null;
  /** GDACS's own flag: the event is still going on. */
  current: boolean | null;
  country: string | null;
  iso3: string | null;
  affected_countries: { iso2: string | null; iso3: string | null; name: string | null }[];
  /** GDACS's severity: magnitude for EQ, wind speed for TC..., with its text and unit as published. */
  severity: { value: number; text: string | null; unit: string | null } | null;
  lat: number;
  lon: number;
  /** The GDACS report page. */
  url: string | null;
  /** The agency GDACS took the event from (`NEIC`, `GLOFAS`, `JTWC`...). */
  provider: string | null;
  source_url: string;
}

const FEED = 'GDACS events';
const NAIVE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** GDACS's dates carry no zone and are UTC. */
function utc(v: unknown): string | null {
  if (typeof v !== 'string' || !NAIVE_TIME.test(v)) return null;
  const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(v) ? v : `${v}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const int = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : null;
const level = (v: unknown): GdacsAlertLevel | null =>
  typeof v === 'string' && LEVELS.includes(v.toLowerCase()) ? (v.toLowerCase() as GdacsAlertLevel) : null;

function event(f: unknown, sourceUrl: string): GdacsEventRecord | { id: string | null; error: string } {
  if (!isObject(f) || !isObject(f.properties)) return { id: null, error: 'not a GeoJSON Feature with properties' };
  const p = f.properties;
  const type = typeof p.eventtype === 'string' ? p.eventtype.toUpperCase() : null;
  if (!type || !(GDACS_EVENT_TYPES as readonly string[]).includes(type))
    return {
      id: null,
      error: `eventtype is not one of ${GDACS_EVENT_TYPES.join(', ')} (${JSON.stringify(p.eventtype)})`,
    };
  const eventId = int(p.eventid);
  if (eventId === null) return { id: null, error: `eventid is not a whole number (${JSON.stringify(p.eventid)})` };
  const id = `gdacs-${type}-${eventId}`;
  const alert = level(p.alertlevel);
  if (!alert) return { id, error: `alertlevel is not Green, Orange or Red (${JSON.stringify(p.alertlevel)})` };
  const from = utc(p.fromdate);
  if (!from) return { id, error: `fromdate is not a date-time (${JSON.stringify(p.fromdate)})` };
  const to = p.todate === undefined || p.todate === null || p.todate === '' ? null : utc(p.todate);
  if (to === null && p.todate !== undefined && p.todate !== null && p.todate !== '')
    return { id, error: `todate is not a date-time (${JSON.stringify(p.todate)})` };
  const g = f.geometry;
  if (!isObject(g) || g.type !== 'Point' || !Array.isArray(g.coordinates))
    return { id, error: `geometry is not a Point (${JSON.stringify(isObject(g) ? g.type : g)})` };
  const [lon, lat] = g.coordinates as unknown[];
  if (num(lon) === null || num(lat) === null || Math.abs(lat as number) > 90 || Math.abs(lon as number) > 180)
    return { id, error: `coordinates are not a longitude and latitude (${JSON.stringify(g.coordinates)})` };
  const sev = isObject(p.severitydata) ? p.severitydata : null;
  const urls = isObject(p.url) ? p.url : {};
  return {
    id,
    event_type: type as GdacsEventType,
    event_id: eventId,
    episode_id: int(p.episodeid),
    name: text(p.name) ?? text(p.eventname),
    alert_level: alert,
    alert_score: num(p.alertscore),
    episode_alert_level: level(p.episodealertlevel),
    from,
    to,
    modified: utc(p.datemodified),
    current: bool(p.iscurrent),
    country: text(p.country),
    iso3: text(p.iso3),
    affected_countries: (Array.isArray(p.affectedcountries) ? p.affectedcountries : [])
      .filter(isObject)
      .map((c) => ({ iso2: text(c.iso2), iso3: text(c.iso3), name: text(c.countryname) })),
    severity:
      sev && num(sev.severity) !== null
        ? { value: sev.severity as number, text: text(sev.severitytext)?.trim() ?? null, unit: text(sev.severityunit) }
        : null,
    lat: lat as number,
    lon: lon as number,
    url: text(urls.report),
    provider: text(p.source),
    source_url: sourceUrl,
  };
}

/**
 * The events of a GDACS event-list document. An empty body is no events: GDACS answers a search
 * that finds nothing with HTTP 204 and no body. Anything else that is not a FeatureCollection of
 * GDACS events throws FeedFormatError.
 */
export function parseGdacsEvents(body: string, sourceUrl: string): FeedParse<GdacsEventRecord> {
  const records: GdacsEventRecord[] = [];
  const problems: FeedProblem[] = [];
  if (body.trim() === '') return { records, problems };
  const doc = readJson(body, FEED);
  if (!isObject(doc) || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features))
    throw new FeedFormatError(FEED, 'expected a GeoJSON FeatureCollection of GDACS events');
  const features = doc.features as unknown[];
  if (
    features.length > 0 &&
    !features.some(
      (f) => isObject(f) && isObject(f.properties) && 'eventtype' in f.properties && 'alertlevel' in f.properties,
    )
  ) {
    throw new FeedFormatError(FEED, 'no feature has an eventtype and alertlevel: not a GDACS event list');
  }
  const seen = new Set<string>();
  features.forEach((f, i) => {
    const e = event(f, sourceUrl);
    if ('error' in e) return problems.push({ entry: i, id: e.id, reason: e.error });
    if (seen.has(e.id)) return problems.push({ entry: i, id: e.id, reason: 'the same event twice' });
    seen.add(e.id);
    records.push(e);
  });
  return { records, problems };
}
