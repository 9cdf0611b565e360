/**
 * The seven-factor threat score (docs/threat-score.md): for a target (an IP, a domain, an MMSI, a
 * location `lat,lon`, a sensor) in a context (maritime, security, infrastructure, defense), a
 * composite 0..100 from seven factors, each 0..1 with the context's weight:
 *
 * 1. indicators: the target on the tenant's watchlist (1), or in the indicators of its active
 *    threat definitions (their weights summed);
 * 2. history: the tenant's events naming the target (the mention index), the incidents they
 *    opened, and those that matched threat definitions, over SCORE_RULES.historyDays;
 * 3. recency and frequency: how lately it was named, and on how many days;
 * 4. geography: for an IP, its country and ASN (offline database), for a domain its country-code
 *    TLD, for a position the security level of the tenant's zones there; a watched country or ASN
 *    makes it 1;
 * 5. behaviour: a vessel's gaps, loitering and speed anomalies; a sensor's state; for an IP or a
 *    domain the share of its events that matched a definition or opened an incident; at a
 *    location, the loitering and gaps there;
 * 6. proximity: how near the target's position (or the positions of the events naming it) is to
 *    the tenant's critical assets and infrastructure lines;
 * 7. context: how much such a target matters in the context, times the strongest other factor.
 *
 * Deterministic: the same data and the same time give the same score. Where data is missing the
 * factor is 0 and `notes` says why.
 */
import { NotFoundError, invalid } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { TenantPlan } from '../../vocabulary/plans.js';
import { retentionFloorMs } from '../accounts/index.js';
import { severityOfScore } from '../../vocabulary/score-bands.js';
import {
  CONTEXT_RELEVANCE,
  CONTEXT_WEIGHTS,
  SCORE_FACTORS,
  SCORE_RULES as R,
  type ScoreContext,
  type ScoreFactor,
  type ScoreTargetType,
} from '../../vocabulary/threat-score.js';
import {
  getSiteEntity,
  listSiteEntitiesOfTenant,
  SITE_KINDS,
  type Asset,
  type StoredSensor,
  type Zone,
} from '../../db/site-entities.js';
import { readItems } from '../../db/read-batch.js';
import { libraryRevisionFrom, libraryRevisionKey } from '../../db/threat-libraries.js';
import { episodesEndedBetween } from '../../db/vessels/index.js';
import { IP_GEO_ATTRIBUTION, ipGeoSource, lookupIp, type IpGeo } from '../../adapters/ip-geo.js';
import { normaliseDomain, normaliseIp } from '../events/index.js';
import { geofenceContains } from '../geo/index.js';
import { tenantDefinitions } from '../threat-libraries/index.js';
import { lineFiles, nearestLines } from '../infrastructure/index.js';
import { metresBetween } from '../../geo/distance.js';
import { vesselProfile } from '../vessels/index.js';
import { watchlistAt, type WatchHit, type WatchView } from '../watchlist/index.js';
import { watchlistRevisionFrom, watchlistRevisionKey } from '../../db/watchlist/index.js';
import { historyOf, type History } from './history.js';

export interface ScoreRequest {
  target: string;
  target_type: ScoreTargetType;
  context: ScoreContext;
}

export interface FactorResult {
  value: number;
  weight: number;
  contribution: number;
  detail: string;
}

interface Point {
  lat: number;
  lon: number;
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const clamp = (n: number) => Math.max(0, Math.min(1, n));
const DAY_MS = 86_400_000;

/** The target as the index keeps it; a 422 naming `target` when it is not of its type. */
export function normaliseTarget(type: ScoreTargetType, target: string): { key: string; point: Point | null } {
  const bad = (msg: string) => invalid(['query', 'target'], msg);
  switch (type) {
    case 'ip': {
      const ip = normaliseIp(target);
      if (!ip) throw bad('must be an IPv4 or IPv6 address');
      return { key: ip, point: null };
    }
    case 'domain': {
      const d = normaliseDomain(target);
      if (!d) throw bad('must be a host name such as example.com');
      return { key: d, point: null };
    }
    case 'mmsi':
      if (!/^[0-9]{9}$/.test(target.trim())) throw bad('must be an MMSI: nine digits');
      return { key: target.trim(), point: null };
    case 'sensor':
      if (!/^\S{1,64}$/.test(target.trim())) throw bad('must be a sensor id');
      return { key: target.trim(), point: null };
    case 'location': {
      const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(target);
      const lat = m ? Number(m[1]) : NaN;
      const lon = m ? Number(m[2]) : NaN;
      if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180))
        throw bad('must be "lat,lon" in degrees, latitude -90..90 and longitude -180..180');
      return { key: `${round(lat, 6)},${round(lon, 6)}`, point: { lat, lon } };
    }
  }
}

/** Country-code TLDs are two letters; `uk` is GB's. */
const countryOfDomain = (domain: string): string | null => {
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  return /^[a-z]{2}$/.test(tld) ? (tld === 'uk' ? 'GB' : tld.toUpperCase()) : null;
};

/** The score of a target; of events, only those the tenant's `plan` still keeps count (docs/plans.md). */
export async function threatScore(tenantId: TenantId, req: ScoreRequest, plan: TenantPlan, nowMs = Date.now()) {
  const { key, point: givenPoint } = normaliseTarget(req.target_type, req.target);
  const notes: string[] = [];
  // History reaches back R.historyDays, not before what the plan keeps: a mention is of an event,
  // and an event received before the plan's floor is one the event routes no longer show.
  const floorMs = retentionFloorMs(plan, nowMs) ?? -Infinity;
  const fromMs = Math.max(nowMs - R.historyDays * DAY_MS, floorMs);

  // What the target is, where it is, and what named it.
  // The threat libraries' and the watchlist's revisions in one read: each compiled set is read
  // again only when its revision moved.
  const revisions = readItems([libraryRevisionKey(tenantId), watchlistRevisionKey(tenantId)]);
  const [watch, definitions, history, subject] = await Promise.all([
    revisions.then((read) => watchlistAt(tenantId, watchlistRevisionFrom(read, tenantId)?.revision ?? 0)),
    revisions.then((read) => tenantDefinitions(tenantId, libraryRevisionFrom(read, tenantId)?.revision)),
    historyOf(tenantId, req.target_type, key, givenPoint, fromMs, floorMs, nowMs),
    subjectOf(tenantId, req.target_type, key, nowMs),
  ]);
  if (history.truncated) notes.push(`Only the newest ${R.historyLimit} events naming the target were read.`);
  const point = givenPoint ?? subject.point;
  // 1. Indicators and watchlists.
  const watched: WatchHit[] = watch.direct(req.target_type, key, point);
  const indicatorDefs = definitions.filter((d) => {
    const ind = d.indicators;
    if (!ind) return false;
    if (req.target_type === 'domain') return ind.domains.some((x) => key === x || key.endsWith(`.${x}`));
    return (req.target_type === 'ip' || req.target_type === 'mmsi') && ind.values.has(key);
  });
  const indicatorSum = clamp(indicatorDefs.reduce((s, d) => s + d.definition.weight, 0));
  const indicators = {
    value: watched.length > 0 ? 1 : indicatorSum,
    detail: [
      watched.length > 0 ? `on the watchlist: ${watched.map((w) => w.label).join(', ')}` : 'not on the watchlist',
      indicatorDefs.length > 0
        ? `in the indicators of ${indicatorDefs.map((d) => d.definition.name).join(', ')}`
        : "in no threat definition's indicators",
    ].join('; '),
  };

  // 2. History; 3. recency and frequency.
  const historyValue = clamp(
    R.perEvent * history.events + R.perIncident * history.incidents + R.perSignatureEvent * history.matched,
  );
  const newest = history.newest;
  const ageDays = newest ? Math.max(0, (nowMs - Date.parse(newest)) / DAY_MS) : null;
  const recency = ageDays === null ? 0 : 0.5 ** (ageDays / R.recencyHalfLifeDays);
  const frequency = clamp(history.recentDays / R.busyDays);

  // 4. Geography.
  const geo = await geographyOf(req.target_type, key, point, subject, watch, tenantId);

  // 5. Behaviour; 6. proximity.
  const [behaviour, proximity] = await Promise.all([
    behaviourOf(tenantId, req.target_type, point, subject, history, nowMs),
    proximityOf(tenantId, point ? [point] : history.points, point ? 'the target' : 'the events naming it'),
  ]);

  const values: Record<Exclude<ScoreFactor, 'context'>, { value: number; detail: string }> = {
    indicators,
    history: {
      value: historyValue,
      detail: `${history.events} event(s), ${history.incidents} incident(s), ${history.matched} event(s) matching a threat definition in ${R.historyDays} days`,
    },
    recency_frequency: {
      value: clamp(0.6 * recency + 0.4 * frequency),
      detail: newest
        ? `last named ${newest} (${round(ageDays!, 1)} days ago), on ${history.recentDays} distinct day(s) of the last 30`
        : 'never named by an event',
    },
    geography: geo,
    behaviour,
    proximity,
  };
  const strongest = Math.max(...Object.values(values).map((v) => v.value));
  const relevance = CONTEXT_RELEVANCE[req.context][req.target_type];
  const weights = CONTEXT_WEIGHTS[req.context];
  const all = {
    ...values,
    context: {
      value: relevance * strongest,
      detail: `${req.target_type === 'ip' ? 'an' : 'a'} ${req.target_type} matters ${relevance} in ${req.context}, times the strongest factor (${round(strongest)})`,
    },
  };
  const factors = Object.fromEntries(
    SCORE_FACTORS.map((name) => {
      const f = all[name];
      const value = round(f.value);
      return [
        name,
        {
          value,
          weight: weights[name],
          contribution: round(100 * value * weights[name], 2),
          detail: f.detail,
        } satisfies FactorResult,
      ];
    }),
  ) as Record<ScoreFactor, FactorResult>;
  const composite = Math.round(SCORE_FACTORS.reduce((s, name) => s + 100 * factors[name].value * weights[name], 0));
  if (history.events === 0)
    notes.push('No event of the tenant names the target: history, recency and frequency are 0.');
  notes.push(...subject.notes, ...geo.notes);
  const matched = [...new Set([...indicatorDefs.map((d) => d.definition.name), ...history.signatures])].sort();
  return {
    target: key,
    target_type: req.target_type,
    context: req.context,
    composite_score: composite,
    severity: severityOfScore(composite),
    matched_signatures: matched,
    factors,
    watchlist: watched.map(({ entry_id, entity_type, value, label }) => ({ entry_id, entity_type, value, label })),
    geography: geo.facts,
    window: { from: history.from, to: new Date(nowMs).toISOString() },
    computed_at: new Date(nowMs).toISOString(),
    notes,
    /** The watchlist entries touched, for the alert (not shown). */
    touched: [...watched, ...geo.watched],
  };
}

interface Subject {
  point: Point | null;
  vessel: Awaited<ReturnType<typeof vesselProfile>> | null;
  sensor: StoredSensor | null;
  notes: string[];
}

/** What the service keeps of the target itself: a vessel's profile, a sensor. */
async function subjectOf(tenantId: TenantId, type: ScoreTargetType, key: string, nowMs: number): Promise<Subject> {
  if (type === 'mmsi') {
    try {
      const vessel = await vesselProfile(tenantId, key, R.vesselDays * 24, nowMs);
      const p = vessel.last_position;
      return { point: p ? { lat: p.lat, lon: p.lon } : null, vessel, sensor: null, notes: [] };
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      return {
        point: null,
        vessel: null,
        sensor: null,
        notes: ['The tenant has no AIS data for this MMSI: behaviour, geography and proximity cannot be judged.'],
      };
    }
  }
  if (type === 'sensor') {
    const sensor = await getSiteEntity<StoredSensor>(SITE_KINDS.sensor, tenantId, key);
    if (!sensor)
      return {
        point: null,
        vessel: null,
        sensor: null,
        notes: ['No sensor of the tenant has this id: only the events naming it count.'],
      };
    return { point: sensor.location, vessel: null, sensor, notes: [] };
  }
  return { point: null, vessel: null, sensor: null, notes: [] };
}

async function geographyOf(
  type: ScoreTargetType,
  key: string,
  point: Point | null,
  subject: Subject,
  watch: WatchView,
  tenantId: TenantId,
) {
  const notes: string[] = [];
  let facts: {
    country: string | null;
    asn: number | null;
    as_org: string | null;
    scope: IpGeo['scope'] | null;
    zones: string[];
    source: { data: string; attribution: string } | null;
  } = { country: null, asn: null, as_org: null, scope: null, zones: [], source: null };
  let value = 0;
  let detail: string;
  if (type === 'ip') {
    const [g, source] = await Promise.all([lookupIp(key), ipGeoSource()]);
    facts = {
      ...facts,
      country: g.country,
      asn: g.asn,
      as_org: g.as_org,
      scope: g.scope,
      source: { data: `${source.asn}; ${source.country}`, attribution: IP_GEO_ATTRIBUTION },
    };
    if (g.scope !== 'public') {
      detail = `a ${g.scope.replace('_', '-')} address: geography does not apply`;
    } else if (g.asn === null) {
      value = R.unroutedIp;
      detail = `a public address in no announced ASN${g.country ? `, registered to ${g.country}` : ''}`;
    } else {
      value = R.routedIp;
      detail = `AS${g.asn}${g.as_org ? ` (${g.as_org})` : ''}, ${g.country ?? 'country unknown'}`;
    }
  } else if (type === 'domain') {
    const country = countryOfDomain(key);
    facts = { ...facts, country };
    value = country ? R.countryTld : 0;
    detail = country
      ? `country-code TLD of ${country}`
      : 'a generic TLD: no country (domains are not resolved offline)';
  } else if (point) {
    const zones = (await listSiteEntitiesOfTenant<Zone>(SITE_KINDS.zone, tenantId, { limit: 1000, offset: 0 })).filter(
      (z) => z.active && geofenceContains(z.geofence, point),
    );
    const level = Math.max(0, ...zones.map((z) => z.security_level));
    facts = { ...facts, zones: zones.map((z) => z.zone_id), country: subject.vessel?.flag?.country_code ?? null };
    value = level / 5;
    detail = zones.length
      ? `in ${zones.length} zone(s) of the tenant, highest security level ${level} of 5`
      : "in none of the tenant's zones";
    if (subject.vessel?.flag) detail += `; flag ${subject.vessel.flag.country} (${subject.vessel.flag.country_code})`;
  } else {
    detail = 'no position known';
  }
  const watched = watch.geography({ asn: facts.asn, country: facts.country });
  if (watched.length > 0) {
    value = 1;
    detail += `; watched: ${watched.map((w) => w.label).join(', ')}`;
  }
  return { value, detail, facts, watched, notes };
}

async function behaviourOf(
  tenantId: TenantId,
  type: ScoreTargetType,
  point: Point | null,
  subject: Subject,
  history: History,
  nowMs: number,
) {
  if (type === 'mmsi') {
    const v = subject.vessel;
    if (!v) return { value: 0, detail: 'no AIS data' };
    const b = v.behaviour;
    const value = clamp(
      R.perGap * b.gaps.length +
        R.perLoitering * b.loitering.length +
        R.perSpeedAnomaly * b.speed_anomalies.length +
        (v.status.dark ? R.darkNow : 0),
    );
    return {
      value,
      detail: `${b.gaps.length} AIS gap(s), ${b.loitering.length} loitering episode(s), ${b.speed_anomalies.length} speed anomaly(ies) in ${R.vesselDays} days${v.status.dark ? '; dark now' : ''}`,
    };
  }
  if (type === 'sensor') {
    const s = subject.sensor;
    const { flagged, events } = history;
    const share = events ? flagged / events : 0;
    if (!s)
      return {
        value: share,
        detail: `${flagged} of ${events} event(s) matched a definition or opened an incident`,
      };
    const silent = s.last_seen_at ? (nowMs - Date.parse(s.last_seen_at)) / 60_000 : null;
    const odd = s.status !== 'active' ? 0.5 : silent !== null && silent > R.sensorSilentMinutes ? 0.3 : 0;
    return {
      value: clamp(odd + share),
      detail: `status ${s.status}, ${silent === null ? 'never heard from' : `last heard ${Math.round(silent)} min ago`}; ${flagged} of ${events} event(s) matched a definition or opened an incident`,
    };
  }
  if (type === 'location' && point) {
    const from = new Date(nowMs - R.vesselDays * DAY_MS).toISOString();
    const to = new Date(nowMs).toISOString();
    const [loiter, gaps] = await Promise.all([
      episodesEndedBetween(tenantId, 'loitering', from, to, 500),
      episodesEndedBetween(tenantId, 'gap', from, to, 500),
    ]);
    const near = (e: { center?: Point; from: Point; to: Point }) =>
      [e.center, e.from, e.to].some((p) => p && metresBetween(p, point) <= R.episodeNearM);
    const l = loiter.filter(near).length;
    const g = gaps.filter(near).length;
    return {
      value: clamp(R.perLoitering * l + R.perGap * g),
      detail: `${l} loitering episode(s) and ${g} AIS gap(s) within ${R.episodeNearM} m in ${R.vesselDays} days`,
    };
  }
  const { flagged, events } = history;
  return {
    value: events ? flagged / events : 0,
    detail: events
      ? `${flagged} of ${events} event(s) naming it matched a threat definition or opened an incident`
      : 'no event names it',
  };
}

async function proximityOf(tenantId: TenantId, points: Point[], what: string) {
  if (points.length === 0) return { value: 0, detail: 'no position known' };
  // The tenant's line files once for all the points (up to 20 events' positions): one Query
  // whatever the number of events naming the target, the line indexes kept per container.
  const [assets, files] = await Promise.all([
    listSiteEntitiesOfTenant<Asset>(SITE_KINDS.asset, tenantId, { limit: 1000, offset: 0 }),
    lineFiles(tenantId),
  ]);
  const lines = await Promise.all(points.map((p) => nearestLines(tenantId, p, R.lineReachM, 1, files)));
  let best = {
    value: 0,
    detail: `no critical asset within ${R.assetReachM / 1000} km and no line within ${R.lineReachM / 1000} km of ${what}`,
  };
  for (const p of points) {
    for (const a of assets) {
      if (!a.location) continue;
      const d = metresBetween(a.location, p);
      const v = (R.criticality[a.criticality] ?? 0) * clamp(1 - d / R.assetReachM);
      if (v > best.value) best = { value: v, detail: `${Math.round(d)} m from asset ${a.name} (${a.criticality})` };
    }
  }
  for (const hit of lines.flat()) {
    const v = (R.lineKinds[hit.kind] ?? 0.6) * clamp(1 - hit.distance_m / R.lineReachM);
    if (v > best.value)
      best = { value: v, detail: `${Math.round(hit.distance_m)} m from line ${hit.name ?? hit.line_id} (${hit.kind})` };
  }
  return best;
}
