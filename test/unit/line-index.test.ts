/** The line index of an infrastructure file: its lines, named, and the nearest to a point, measured as turf measures. */
import { describe, expect, it } from 'vitest';
import pointToLineDistance from '@turf/point-to-line-distance';
import { lineString, point } from '@turf/helpers';
import type { FeatureCollection } from 'geojson';
import { buildLineIndex } from '../../shared/domain/infrastructure/line-index.js';
import { linesNear, openLineIndex } from '../../shared/domain/infrastructure/line-search.js';

const cable: [number, number][] = [
  [1.4, 51.1],
  [1.6, 51.15],
  [1.8, 51.2],
];
const features: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'Channel Link 1' }, geometry: { type: 'LineString', coordinates: cable } },
    {
      type: 'Feature',
      properties: { Name: 'Harbour substation' },
      geometry: { type: 'Point', coordinates: [1.3, 51.1] },
    },
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'MultiLineString',
        coordinates: [
          [
            [1.0, 50.0],
            [1.1, 50.0],
          ],
          [
            [2.0, 52.0],
            [2.1, 52.1],
          ],
        ],
      },
    },
  ],
};

describe('line index', () => {
  const data = buildLineIndex(features);
  const index = openLineIndex(JSON.parse(JSON.stringify(data)));

  it('keeps every line and part, named from the feature, and no points', () => {
    expect(data.lines.map((l) => [l.line_id, l.name])).toEqual([
      ['0', 'Channel Link 1'],
      ['2.0', null],
      ['2.1', null],
    ]);
    expect(data.segments).toHaveLength(4);
  });

  it('finds the nearest line and its distance as turf measures it, through a serialised index', () => {
    const here = { lat: 51.2, lon: 1.55 };
    const hits = linesNear(index, here, 50_000);
    expect(hits.map((h) => h.line.line_id)).toEqual(['0']);
    const expected = pointToLineDistance(point([here.lon, here.lat]), lineString(cable), { units: 'meters' });
    expect(Math.abs(hits[0]!.distance_m - expected)).toBeLessThan(2);
    expect(linesNear(index, here, 1000)).toEqual([]);
    expect(linesNear(index, { lat: 52.05, lon: 2.05 }, 100)[0]!.line.line_id).toBe('2.1');
  });

  it('answers nothing for a file without lines', () => {
    const none = openLineIndex(buildLineIndex({ type: 'FeatureCollection', features: [features.features[1]!] }));
    expect(none.tree).toBeNull();
    expect(linesNear(none, { lat: 51.1, lon: 1.3 }, 10_000)).toEqual([]);
  });
});
