/**
 * US National Weather Service alerts (watches, warnings, advisories, tsunami messages included),
 * parsed from either of the two forms NWS publishes, both carrying CAP fields:
 * - api.weather.gov/alerts/active (GeoJSON, `Accept: application/geo+json`): a FeatureCollection
 *   of `wx:Alert` features, CAP fields in `properties`, a Polygon geometry or null;
 * - the CAP Atom index (alerts.weather.gov/cap/us.php, retired by NWS for api.weather.gov's
 *   `/alerts/active.atom`): one Atom `<entry>` per alert with `cap:` children (event, effective,
 *   expires, status, msgType, urgency, severity, certainty, areaDesc, polygon, geocode).
 * CAP 1.2 (OASIS) defines the fields and their values. docs/feeds.md shows a real entry of each.
 */
import type { Element } from '@xmldom/xmldom';
import type { Polygon } from 'geojson';
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';
import { childElements, childText, readXml } from './feed-xml.js';

export { NWS_ALERTS_MAX_BYTES, NWS_ALERTS_URL } from './nws-alerts-source.js';
export const NWS_ALERTS_DESCRIPTION =
  'US National Weather Service active alerts (CAP): watches, warnings and advisories with event, severity, urgency, certainty, times, areas (UGC/SAME codes) and polygon; tsunami warnings from the NWS tsunami centres included. GeoJSON from api.weather.gov or the CAP Atom index. Public domain (US Government).';

export const CAP_SEVERITY = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
export const CAP_URGENCY = ['Immediate', 'Expected', 'Future', 'Past', 'Unknown'] as const;
export const CAP_CERTAINTY = ['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown'] as const;
export const CAP_STATUS = ['Actual', 'Exercise', 'System', 'Test', 'Draft'] as const;
export const CAP_MSG_TYPE = ['Alert', 'Update', 'Cancel', 'Ack', 'Error'] as const;

export interface NwsAlertRecord {
  /** The CAP identifier (`urn:oid:2.49.0.1.840.0.…`, `NWS-IDP-PROD-…`, or the Atom index's `x=` key). */
  id: string;
  /** `Tornado Warning`, `Tsunami Warning`, `Special Weather Statement`… */
  event: string;
  /** True for a tsunami warning, watch, advisory or information statement. */
  tsunami: boolean;
  status: (typeof CAP_STATUS)[number];
  message_type: (typeof CAP_MSG_TYPE)[number];
  severity: (typeof CAP_SEVERITY)[number];
  urgency: (typeof CAP_URGENCY)[number];
  certainty: (typeof CAP_CERTAINTY)[number];
  /** ISO 8601 UTC; `sent` is null in the Atom index, which carries no sent time. */
  sent: string | null;
  effective: string;
  onset: string | null;
  expires: string | null;
  ends: string | null;
  headline: string | null;
  area_desc: string | null;
  /** The issuing office (`NWS El Paso Tx/Santa Teresa NM`) when the document names it. */
  sender_name: string | null;
  /** NWS zone and county codes (`NMC051`, `TXZ055`). */
  ugc: string[];
  /** SAME (FIPS-based) county codes, `035051`; the Atom index calls them FIPS6. */
  same: string[];
  /** The warned area when NWS drew one (storm-based warnings); null for zone-based alerts. */
  polygon: Polygon | null;
  /** Where the full alert is. */
  url: string | null;
  source_url: string;
}

const FEED = 'NWS alerts';
const CAP_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A CAP date-time (zone required) as ISO UTC; null for null/absent; a string reason if malformed. */
function capTime(name: string, v: unknown, required: boolean): string | null | { error: string } {
  if (v === null || v === undefined || v === '') return required ? { error: `no ${name}` } : null;
  if (typeof v !== 'string' || !CAP_TIME.test(v.trim()))
    return { error: `${name} is not a CAP date-time (${JSON.stringify(v)})` };
  return new Date(Date.parse(v.trim())).toISOString();
}

function oneOf<T extends string>(name: string, v: unknown, values: readonly T[]): T | { error: string } {
  return typeof v === 'string' && (values as readonly string[]).includes(v)
    ? (v as T)
    : { error: `${name} is not a CAP ${name} (${JSON.stringify(v)})` };
}

const isError = (v: unknown): v is { error: string } => isObject(v) && typeof v.error === 'string';

/** The id inside an api.weather.gov alert URL, or the `x=` key of a legacy index link, else the text itself. */
function identifierOf(raw: string): string {
  const api = /^https:\/\/api\.weather\.gov\/alerts\/([^/?#]+)$/.exec(raw);
  if (api) return decodeURIComponent(api[1]!);
  const legacy = /[?&]x=([^&#]+)/.exec(raw);
  return legacy ? legacy[1]! : raw;
}

/** A CAP polygon, "lat,lon lat,lon …" (first point repeated last), as a GeoJSON Polygon. */
function capPolygon(v: string | null): Polygon | null | { error: string } {
  if (!v) return null;
  const points = v
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(',').map(Number));
  const ok =
    points.length >= 4 &&
    points.every((p) => p.length === 2 && p.every(Number.isFinite) && Math.abs(p[0]!) <= 90 && Math.abs(p[1]!) <= 180);
  if (!ok) return { error: `polygon is not CAP "lat,lon" pairs (${JSON.stringify(v.slice(0, 60))})` };
  return { type: 'Polygon', coordinates: [points.map(([lat, lon]) => [lon!, lat!])] };
}

function geoJsonPolygon(g: unknown): Polygon | null | { error: string } {
  if (g === null || g === undefined) return null;
  if (!isObject(g) || g.type !== 'Polygon' || !Array.isArray(g.coordinates))
    return { error: `geometry is not a Polygon or null (${JSON.stringify(isObject(g) ? g.type : g)})` };
  const rings = g.coordinates as unknown[];
  const ok =
    rings.length > 0 &&
    rings.every(
      (r) =>
        Array.isArray(r) &&
        r.length >= 4 &&
        r.every(
          (p) => Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n)),
        ),
    );
  return ok
    ? { type: 'Polygon', coordinates: rings as number[][][] }
    : { error: 'geometry has rings that are not lists of [longitude, latitude]' };
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];

interface Fields {
  id: string | null;
  event: unknown;
  status: unknown;
  messageType: unknown;
  severity: unknown;
  urgency: unknown;
  certainty: unknown;
  sent: unknown;
  effective: unknown;
  onset: unknown;
  expires: unknown;
  ends: unknown;
  headline: unknown;
  areaDesc: unknown;
  senderName: unknown;
  ugc: string[];
  same: string[];
  polygon: Polygon | null | { error: string };
  url: string | null;
}

function alert(
  f: Fields,
  sourceUrl: string,
  sentRequired: boolean,
): NwsAlertRecord | { id: string | null; error: string } {
  const id = f.id;
  if (!id) return { id: null, error: 'no identifier' };
  const event = text(f.event);
  if (!event) return { id, error: 'no event' };
  const checks = {
    status: oneOf('status', f.status, CAP_STATUS),
    message_type: oneOf('msgType', f.messageType, CAP_MSG_TYPE),
    severity: oneOf('severity', f.severity, CAP_SEVERITY),
    urgency: oneOf('urgency', f.urgency, CAP_URGENCY),
    certainty: oneOf('certainty', f.certainty, CAP_CERTAINTY),
    sent: capTime('sent', f.sent, sentRequired),
    effective: capTime('effective', f.effective, true),
    onset: capTime('onset', f.onset, false),
    expires: capTime('expires', f.expires, false),
    ends: capTime('ends', f.ends, false),
    polygon: f.polygon,
  };
  for (const v of Object.values(checks)) if (isError(v)) return { id, error: v.error };
  const c = checks as { [K in keyof typeof checks]: Exclude<(typeof checks)[K], { error: string }> };
  return {
    id,
    event,
    tsunami: /\btsunami\b/i.test(event),
    status: c.status,
    message_type: c.message_type,
    severity: c.severity,
    urgency: c.urgency,
    certainty: c.certainty,
    sent: c.sent,
    effective: c.effective!,
    onset: c.onset,
    expires: c.expires,
    ends: c.ends,
    headline: text(f.headline),
    area_desc: text(f.areaDesc),
    sender_name: text(f.senderName),
    ugc: f.ugc,
    same: f.same,
    polygon: c.polygon,
    url: f.url,
    source_url: sourceUrl,
  };
}

/** The alerts of an api.weather.gov GeoJSON document or a CAP Atom index; FeedFormatError if neither. */
export function parseNwsAlerts(body: string, sourceUrl: string): FeedParse<NwsAlertRecord> {
  const entries = body.trimStart().startsWith('<') ? atomEntries(body, sourceUrl) : geoJsonEntries(body, sourceUrl);
  const records: NwsAlertRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if ('error' in e) return problems.push({ entry: i, id: e.id, reason: e.error });
    if (seen.has(e.id)) return problems.push({ entry: i, id: e.id, reason: 'the same alert twice' });
    seen.add(e.id);
    records.push(e);
  });
  return { records, problems };
}

function geoJsonEntries(body: string, sourceUrl: string) {
  const doc = readJson(body, FEED);
  if (!isObject(doc) || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features)) {
    throw new FeedFormatError(FEED, 'expected a GeoJSON FeatureCollection of alerts (api.weather.gov/alerts)');
  }
  const features = doc.features as unknown[];
  const looksLikeAlert = (f: unknown) =>
    isObject(f) && isObject(f.properties) && ('event' in f.properties || f.properties['@type'] === 'wx:Alert');
  if (features.length > 0 && !features.some(looksLikeAlert))
    throw new FeedFormatError(FEED, 'no feature has alert properties (event): not an alerts collection');
  return features.map((f) => {
    if (!isObject(f) || !isObject(f.properties)) return { id: null, error: 'not a GeoJSON Feature with properties' };
    const p = f.properties;
    const geocode = isObject(p.geocode) ? p.geocode : {};
    const rawId = text(p.id) ?? text(f.id);
    return alert(
      {
        id: rawId ? identifierOf(rawId) : null,
        event: p.event,
        status: p.status,
        messageType: p.messageType,
        severity: p.severity,
        urgency: p.urgency,
        certainty: p.certainty,
        sent: p.sent,
        effective: p.effective,
        onset: p.onset,
        expires: p.expires,
        ends: p.ends,
        headline: p.headline,
        areaDesc: p.areaDesc,
        // Before about 2018 the API put the office's name in `sender`; now `senderName` has it and `sender` is an address.
        senderName: p.senderName ?? (typeof p.sender === 'string' && !p.sender.includes('@') ? p.sender : null),
        ugc: strings(geocode.UGC),
        same: strings(geocode.SAME),
        polygon: geoJsonPolygon(f.geometry),
        url: text(p['@id']) ?? text(f.id),
      },
      sourceUrl,
      true,
    );
  });
}

function atomEntries(body: string, sourceUrl: string) {
  const doc = readXml(body, FEED);
  const root = doc.documentElement!;
  if (root.localName !== 'feed')
    throw new FeedFormatError(FEED, `expected an Atom <feed> of CAP alerts, got <${root.localName}>`);
  const entries = childElements(root, 'entry');
  const hasCap = (e: Element) =>
    childElements(e).some(
      (c) => c.namespaceURI?.startsWith('urn:oasis:names:tc:emergency:cap:') && c.localName === 'event',
    );
  if (entries.length > 0 && !entries.some(hasCap))
    throw new FeedFormatError(FEED, 'no entry carries a CAP event: an Atom feed, but not of CAP alerts');
  return entries.map((e) => {
    const capChild = (name: string) =>
      childElements(e, name).find((c) => c.namespaceURI?.startsWith('urn:oasis:names:tc:emergency:cap:'));
    const capText = (name: string) => capChild(name)?.textContent?.trim() || null;
    // <cap:geocode> holds valueName/value pairs; a value lists codes separated by spaces.
    const codes: Record<string, string[]> = {};
    const geocode = capChild('geocode');
    if (geocode) {
      let name: string | null = null;
      for (const c of childElements(geocode)) {
        if (c.localName === 'valueName') name = c.textContent?.trim() ?? null;
        else if (c.localName === 'value' && name)
          codes[name] = (codes[name] ?? []).concat((c.textContent ?? '').trim().split(/\s+/).filter(Boolean));
      }
    }
    const rawId = childText(e, 'id');
    const link = childElements(e, 'link')[0]?.getAttribute('href') ?? null;
    return alert(
      {
        id: rawId ? identifierOf(rawId) : null,
        event: capText('event'),
        status: capText('status'),
        messageType: capText('msgType'),
        severity: capText('severity'),
        urgency: capText('urgency'),
        certainty: capText('certainty'),
        sent: capText('sent'),
        effective: capText('effective'),
        onset: capText('onset'),
        expires: capText('expires'),
        ends: capText('ends'),
        headline: capText('headline') ?? childText(e, 'title'),
        areaDesc: capText('areaDesc'),
        senderName: capText('senderName'),
        ugc: codes.UGC ?? [],
        same: codes.SAME ?? codes.FIPS6 ?? [],
        polygon: capPolygon(capText('polygon')),
        url: link,
      },
      sourceUrl,
      false,
    );
  });
}
