/** The USGS GeoJSON summary parser against real captures, and quakes matched to places by distance. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { parseUsgsQuakes, quakesNear, USGS_QUAKES_URL } from '../../shared/feeds/usgs-quakes.js';

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/feeds/usgs-quakes/${name}`, import.meta.url), 'utf8');
const ALL_DAY = sample('all_day.2022-09-29.trimmed.geojson');
const SIGNIFICANT = sample('significant_month.2020-06-08.geojson');
const SIGNIFICANT_URL = 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/significant_month.geojson';

/**
 * The point `km` from `from` along `bearing` degrees on a sphere of turf's mean Earth radius (the
 * radius the repo's metresBetween measures with): the test's way of placing a point at a known distance.
 */
function moved(from: { lat: number; lon: number }, km: number, bearing: number) {
  const R = 6371008.8;
  const rad = Math.PI / 180;
  const d = (km * 1000) / R;
  const [φ1, λ1, θ] = [from.lat * rad, from.lon * rad, bearing * rad];
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: φ2 / rad, lon: λ2 / rad };
}

describe('parseUsgsQuakes', () => {
  it('reads every feature of a real all_day feed', () => {
    const { records, problems } = parseUsgsQuakes(ALL_DAY, USGS_QUAKES_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(20);
    // Raw: "mag":6.8, "time":1664420604147, "updated":1664421971342, "alert":"green", "tsunami":1,
    // "coordinates":[-20.0169,-60.8035,10], "id":"us6000ip57".
    expect(records.find((r) => r.id === 'us6000ip57')).toEqual({
      id: 'us6000ip57',
      time: '2022-09-29T03:03:24.147Z',
      updated: '2022-09-29T03:26:11.342Z',
      magnitude: 6.8,
      place: 'east of the South Sandwich Islands',
      lat: -60.8035,
      lon: -20.0169,
      depth_km: 10,
      tsunami: true,
      alert: 'green',
      event_type: 'earthquake',
      url: 'https://earthquake.usgs.gov/earthquakes/eventpage/us6000ip57',
      title: 'M 6.8 - east of the South Sandwich Islands',
      source_url: USGS_QUAKES_URL,
    });
    expect(records[1]).toMatchObject({
      id: 'hv73158067',
      magnitude: 2.1500001,
      place: '10 km ENE of Pāhala, Hawaii',
      depth_km: 32.7200012207031,
      alert: null,
      tsunami: false,
    });
    // Quarry blasts are in the feed, above ground level: kept, with their type, for the caller to filter.
    expect(records.find((r) => r.id === 'ci40352768')).toMatchObject({
      event_type: 'quarry blast',
      depth_km: -0.82,
      magnitude: 1.71,
    });
    expect(records.filter((r) => r.alert === 'green').map((r) => r.id)).toEqual([
      'us6000ip57',
      'us6000ip3f',
      'us6000inwk',
    ]);
  });

  it('reads a significant-earthquakes feed, tsunami flags and all', () => {
    const { records, problems } = parseUsgsQuakes(SIGNIFICANT, SIGNIFICANT_URL);
    expect(problems).toEqual([]);
    expect(records.map((r) => [r.id, r.magnitude, r.tsunami])).toEqual([
      ['us6000a5r3', 6.4, true],
      ['ci39462536', 5.53, true],
      ['us6000a4yi', 6.8, true],
      ['nn00725272', 6.5, false],
      ['us70009f12', 6.6, true],
      ['ci38488354', 4.54, false],
    ]);
    expect(records[1]).toMatchObject({
      time: '2020-06-04T01:32:11.140Z',
      updated: '2020-06-08T08:36:52.770Z',
      lat: 35.6148333,
      lon: -117.4281667,
      depth_km: 8.44,
    });
  });

  it('gives each event the same id on every poll', () => {
    const ids = () => parseUsgsQuakes(ALL_DAY, USGS_QUAKES_URL).records.map((r) => r.id);
    expect(ids()).toEqual(ids());
    expect(new Set(ids()).size).toBe(20);
  });

  it('skips a broken feature, names it, and keeps the rest', () => {
    const doc = JSON.parse(ALL_DAY) as {
      features: { id?: string; properties: Record<string, unknown>; geometry: { coordinates: unknown[] } }[];
    };
    const f = doc.features;
    f[0]!.properties.mag = '1.0';
    delete f[1]!.properties.time;
    f[2]!.properties.alert = 'purple';
    f[3]!.geometry.coordinates = [200, 38.8];
    delete f[4]!.id;
    f[5] = structuredClone(f[6]!);
    f[7]!.properties.tsunami = 'no';
    const { records, problems } = parseUsgsQuakes(JSON.stringify(doc), USGS_QUAKES_URL);
    expect(records).toHaveLength(13);
    expect(problems.map((p) => [p.entry, p.id, p.reason])).toEqual([
      [0, 'nc73787051', 'mag is not a number ("1.0")'],
      [1, 'hv73158067', 'time is not epoch milliseconds (undefined)'],
      [2, 'us6000ip57', 'alert is not a PAGER level ("purple")'],
      [3, 'nc73787041', 'coordinates are not a longitude and latitude ([200,38.8])'],
      [4, null, 'no event id'],
      [6, 'ci40352824', 'the same event twice'],
      [7, 'us6000ip52', 'tsunami is not 0 or 1 ("no")'],
    ]);
  });

  it('keeps a quake USGS has no magnitude for yet, with magnitude null', () => {
    const doc = JSON.parse(SIGNIFICANT) as { features: { properties: Record<string, unknown> }[] };
    doc.features[0]!.properties.mag = null;
    const { records, problems } = parseUsgsQuakes(JSON.stringify(doc), SIGNIFICANT_URL);
    expect(problems).toEqual([]);
    expect(records[0]).toMatchObject({ id: 'us6000a5r3', magnitude: null });
  });

  it('throws for a body that is not a FeatureCollection', () => {
    expect(() =>
      parseUsgsQuakes('<html><head><title>503 Service Unavailable</title></head></html>', USGS_QUAKES_URL),
    ).toThrow(/HTML/);
    const oneFeature = JSON.stringify((JSON.parse(SIGNIFICANT) as { features: unknown[] }).features[0]);
    expect(() => parseUsgsQuakes(oneFeature, USGS_QUAKES_URL)).toThrow(/FeatureCollection/);
    expect(() => parseUsgsQuakes('[]', USGS_QUAKES_URL)).toThrow(FeedFormatError);
    expect(() => parseUsgsQuakes(ALL_DAY.slice(0, 5000), USGS_QUAKES_URL)).toThrow(/not JSON/);
  });
});

describe('quakesNear', () => {
  const { records } = parseUsgsQuakes(ALL_DAY, USGS_QUAKES_URL);
  const sandwich = records.find((r) => r.id === 'us6000ip57')!;

  it('pairs a place 30 km from a real epicentre within 50 km, and not one 80 km away', () => {
    const site = { id: 'env-30km', ...moved(sandwich, 30, 45) };
    const far = { id: 'env-80km', ...moved(sandwich, 80, 200) };
    const near = quakesNear(records, [site, far], 50);
    expect(near).toHaveLength(1);
    expect(near[0]!.quake.id).toBe('us6000ip57');
    expect(near[0]!.point).toBe(site);
    expect(near[0]!.distance_km).toBeCloseTo(30, 2);
    expect(quakesNear(records, [far], 79).map((n) => n.point.id)).toEqual([]);
    expect(quakesNear(records, [far], 81).map((n) => [n.quake.id, n.point.id])).toEqual([['us6000ip57', 'env-80km']]);
  });

  it('lists every pair, nearest first, and nothing for no places', () => {
    const cobb = records.find((r) => r.id === 'nc73787051')!;
    const points = [
      { id: 'far', ...moved(cobb, 20, 90) },
      { id: 'close', ...moved(cobb, 5, 0) },
    ];
    const pairs = quakesNear(records, points, 25).map((n) => [n.quake.id, n.point.id]);
    expect(pairs[0]).toEqual(['nc73787051', 'close']);
    expect(pairs).toContainEqual(['nc73787051', 'far']);
    expect(quakesNear(records, [], 1000)).toEqual([]);
  });
});
