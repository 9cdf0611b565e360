/**
 * Matching hazards to places, on real records (test/fixtures/feeds, SOURCES.md): which USGS
 * quakes, GDACS events and NWS alerts alert under a connector's settings, distances to an NWS
 * warning polygon from points and lines, and one match per hazard and environment at its nearest
 * place. No table is read: the places are given.
 */
import { describe, expect, it } from 'vitest';
import type { Polygon } from 'geojson';
import { alertingHazards, hazardIndexTime } from '../../shared/domain/connectors/hazard-feeds.js';
import { hazardsNear, type HazardPlace, type TenantPlaces } from '../../shared/domain/connectors/hazard-places.js';
import { linesNearArea, metresFromArea } from '../../shared/domain/infrastructure/area-search.js';
import { buildLineIndex } from '../../shared/domain/infrastructure/line-index.js';
import { openLineIndex } from '../../shared/domain/infrastructure/line-search.js';
import { metresBetween } from '../../shared/geo/distance.js';
import { GDACS_EVENTS_URL, parseGdacsEvents } from '../../shared/feeds/gdacs-events.js';
import { NWS_ALERTS_URL, parseNwsAlerts, type NwsAlertRecord } from '../../shared/feeds/nws-alerts.js';
import { parseUsgsQuakes, USGS_QUAKES_URL } from '../../shared/feeds/usgs-quakes.js';
import { feedFixture } from '../support/feed-server.js';

const text = (path: string) => feedFixture(path).toString('utf8');
const quakes = parseUsgsQuakes(text('usgs-quakes/all_day.2022-09-29.trimmed.geojson'), USGS_QUAKES_URL).records;
const events = parseGdacsEvents(text('gdacs/eventsbyarea-pakistan.2026-10-08.json'), GDACS_EVENTS_URL).records;
const [warning] = parseNwsAlerts(text('nws-alerts/alerts-zone.2023-09-13.json'), NWS_ALERTS_URL).records as [
  NwsAlertRecord,
];
const zoneOnly = parseNwsAlerts(text('nws-alerts/alerts-point.2017-12-05.json'), NWS_ALERTS_URL).records;
const atom = parseNwsAlerts(
  text('nws-alerts/cap-atom-us.2017-09-02.trimmed.xml'),
  'https://alerts.weather.gov/cap/us.php?x=0',
).records;
/** The Severe Thunderstorm Warning's polygon, 107.22 W to 106.82 W, 33.03 N to 33.31 N. */
const STORM = warning.polygon as Polygon;
const IN_FORCE = Date.parse('2023-09-13T02:20:00Z');

const KM_PER_DEGREE = 111.195;

describe('which records alert', () => {
  it('earthquakes of at least the least magnitude', () => {
    const ids = (min: number) =>
      alertingHazards(
        'usgs-quakes',
        quakes,
        { feed: 'usgs-quakes', url: USGS_QUAKES_URL, interval_minutes: 15, min_magnitude: min },
        0,
      ).map((h) => h.key);
    expect(ids(5)).toEqual(['us6000ip57', 'us6000ip52', 'us6000ip3f', 'us6000inwk']);
    expect(ids(2.5)).toContain('nn00848153');
    expect(ids(7)).toEqual([]);
  });

  it("GDACS events still current, of at least the least level, each with its type's radius unless one is set", () => {
    const settings = { feed: 'gdacs' as const, url: GDACS_EVENTS_URL, interval_minutes: 60 };
    // Of the seven, only EQ 1569499 is current; the orange flood in India is over.
    const green = alertingHazards('gdacs', events, { ...settings, min_alert_level: 'green' }, 0);
    expect(green.map((h) => [h.key, h.radiusKm])).toEqual([['gdacs-EQ-1569499@green', 100]]);
    expect(alertingHazards('gdacs', events, { ...settings, min_alert_level: 'orange' }, 0)).toEqual([]);
    // A copy of the flood, still going on: a flood reaches 100 km from its centroid unless the connector says.
    const flood = { ...events.find((e) => e.event_type === 'FL')!, current: true };
    expect(
      alertingHazards('gdacs', [flood], { ...settings, min_alert_level: 'orange' }, 0).map((h) => [h.key, h.radiusKm]),
    ).toEqual([['gdacs-FL-1104121@orange', 100]]);
    expect(
      alertingHazards('gdacs', [flood], { ...settings, min_alert_level: 'orange', radius_km: 25 }, 0)[0]!.radiusKm,
    ).toBe(25);
    // Raised to red, the same event is another alert.
    expect(
      alertingHazards('gdacs', [{ ...flood, alert_level: 'red' }], { ...settings, min_alert_level: 'red' }, 0).map(
        (h) => h.key,
      ),
    ).toEqual(['gdacs-FL-1104121@red']);
  });

  it('NWS alerts in force with a polygon: not once expired, not a test, not a cancellation, not one without a polygon', () => {
    const settings = { feed: 'nws-alerts' as const, url: NWS_ALERTS_URL, interval_minutes: 5, radius_km: 5 };
    expect(alertingHazards('nws-alerts', [warning], settings, IN_FORCE).map((h) => [h.key, h.site.area])).toEqual([
      [warning.id, STORM],
    ]);
    expect(alertingHazards('nws-alerts', [warning], settings, Date.parse(warning.expires!))).toEqual([]);
    expect(alertingHazards('nws-alerts', [{ ...warning, status: 'Test' }], settings, IN_FORCE)).toEqual([]);
    expect(alertingHazards('nws-alerts', [{ ...warning, message_type: 'Cancel' }], settings, IN_FORCE)).toEqual([]);
    // Zone-coded alerts (no polygon) cannot be placed without NWS's zone shapes.
    expect(zoneOnly.map((a) => a.polygon)).toEqual([null, null]);
    expect(alertingHazards('nws-alerts', zoneOnly, settings, Date.parse('2017-12-05T12:00:00Z'))).toEqual([]);
    // The Atom index's three polygon alerts, in force on the morning it was captured.
    const placed = alertingHazards('nws-alerts', atom, settings, Date.parse('2017-09-02T05:12:00Z'));
    expect(placed).toHaveLength(
      atom.filter((a) => a.polygon && Date.parse(a.expires!) > Date.parse('2017-09-02T05:12:00Z')).length,
    );
    expect(placed.length).toBeGreaterThan(0);
  });

  it('index in time only what the risk route can show', () => {
    expect(hazardIndexTime('usgs-quakes')(quakes.find((q) => q.id === 'nn00848153')!)).toBe(
      quakes.find((q) => q.id === 'nn00848153')!.time,
    );
    expect(quakes.filter((q) => hazardIndexTime('usgs-quakes')(q) !== null).every((q) => q.magnitude! >= 2.5)).toBe(
      true,
    );
    expect(hazardIndexTime('nws-alerts')(warning)).toBe(warning.expires);
    expect(hazardIndexTime('nws-alerts')(zoneOnly[0]!)).toBeNull();
    const flood = events.find((e) => e.event_type === 'FL')!;
    expect(hazardIndexTime('gdacs')(flood)).toBe(flood.to);
  });
});

describe('distances to a warning polygon', () => {
  it('is 0 inside, and the distance to the nearest edge outside', () => {
    expect(metresFromArea(STORM, { lat: 33.23, lon: -107.12 })).toBe(0);
    // 10 km north of the northmost corner (33.31 N, 107.16 W), which is nearest.
    const outside = { lat: 33.31 + 10 / KM_PER_DEGREE, lon: -107.16 };
    expect(metresFromArea(STORM, outside) / 1000).toBeGreaterThan(9);
    expect(metresFromArea(STORM, outside)).toBeLessThanOrEqual(
      metresBetween(outside, { lat: 33.31, lon: -107.16 }) + 1,
    );
  });

  it('finds a line crossing it (0), one lying inside it (0), one 3 km outside within 5 km but not within 2, and not a far one', () => {
    const index = openLineIndex(
      buildLineIndex({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { name: 'across' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [-107.4, 33.15],
                [-106.6, 33.15],
              ],
            },
          },
          {
            type: 'Feature',
            properties: { name: 'inside' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [-107.1, 33.2],
                [-107.0, 33.22],
              ],
            },
          },
          {
            type: 'Feature',
            properties: { name: 'north' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [-107.3, 33.31 + 3 / KM_PER_DEGREE],
                [-107.0, 33.31 + 3 / KM_PER_DEGREE],
              ],
            },
          },
          {
            type: 'Feature',
            properties: { name: 'far' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [-105, 35],
                [-104, 35],
              ],
            },
          },
        ],
      }),
    );
    const near = (km: number) =>
      Object.fromEntries(linesNearArea(index, STORM, km * 1000).map((h) => [h.line.name, h.distance_m]));
    const five = near(5);
    expect(Object.keys(five).sort()).toEqual(['across', 'inside', 'north']);
    expect(five.across).toBe(0);
    // Where it is: a point where it crosses an edge (33.15 N, at 107.1205 W or 106.8791 W), not a corner of the polygon.
    const across = linesNearArea(index, STORM, 5000).find((h) => h.line.name === 'across')!;
    expect(across.nearest.lat).toBeCloseTo(33.15, 6);
    expect([-107.120526, -106.879091].some((lon) => Math.abs(across.nearest.lon - lon) < 1e-5)).toBe(true);
    expect(five.inside).toBe(0);
    expect(five.north! / 1000).toBeCloseTo(3, 0);
    expect(Object.keys(near(2)).sort()).toEqual(['across', 'inside']);
  });
});

describe('hazardsNear', () => {
  const place = (
    id: string,
    environment_id: string,
    at: { lat: number; lon: number },
    kind: HazardPlace['kind'] = 'environment',
  ): HazardPlace => ({ id, environment_id, name: id, kind, ...at });
  const mina = { lat: 38.1809, lon: -117.936 };

  it("pairs each hazard with each environment within its radius, once, at the environment's nearest place", () => {
    const hazards = alertingHazards(
      'usgs-quakes',
      quakes,
      { feed: 'usgs-quakes', url: USGS_QUAKES_URL, interval_minutes: 15, min_magnitude: 2.5, radius_km: 100 },
      0,
    );
    const places: TenantPlaces = {
      environments: [],
      points: [
        place('a-far', 'A', { lat: mina.lat + 60 / KM_PER_DEGREE, lon: mina.lon }),
        place('a-near', 'A', { lat: mina.lat + 30 / KM_PER_DEGREE, lon: mina.lon }),
        place('b', 'B', { lat: mina.lat - 90 / KM_PER_DEGREE, lon: mina.lon }),
        place('c', 'C', { lat: 59.9139, lon: 10.7522 }),
      ],
      files: [],
    };
    return hazardsNear(places, hazards).then((found) => {
      expect(found.map((m) => [m.key, m.place.id, Math.round(m.distance_km)])).toEqual([
        ['nn00848153', 'a-near', 30],
        ['nn00848153', 'b', 90],
      ]);
    });
  });

  it('puts a place inside an area at 0 km and one beyond its radius nowhere', async () => {
    const [hazard] = alertingHazards(
      'nws-alerts',
      [warning],
      { feed: 'nws-alerts', url: NWS_ALERTS_URL, interval_minutes: 5, radius_km: 5 },
      IN_FORCE,
    );
    const places: TenantPlaces = {
      environments: [],
      points: [
        place('in', 'IN', { lat: 33.23, lon: -107.12 }),
        place('edge', 'EDGE', { lat: 33.31 + 3 / KM_PER_DEGREE, lon: -107.16 }),
        place('out', 'OUT', { lat: 33.31 + 8 / KM_PER_DEGREE, lon: -107.16 }),
      ],
      files: [],
    };
    const found = await hazardsNear(places, [hazard!]);
    expect(found.map((m) => [m.place.id, Math.round(m.distance_km)])).toEqual([
      ['in', 0],
      ['edge', 3],
    ]);
  });
});
