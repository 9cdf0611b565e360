/** The GDACS events parser against a real response of GDACS's event API. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { GDACS_EVENTS_URL, parseGdacsEvents } from '../../shared/feeds/gdacs-events.js';

const BODY = readFileSync(
  new URL('../fixtures/feeds/gdacs/eventsbyarea-pakistan.2026-10-08.json', import.meta.url),
  'utf8',
);
const QUAKES = readFileSync(
  new URL('../fixtures/feeds/usgs-quakes/significant_month.2020-06-08.geojson', import.meta.url),
  'utf8',
);

describe('parseGdacsEvents', () => {
  it('reads every event: type, alert level, position, dates in UTC, countries, severity', () => {
    const { records, problems } = parseGdacsEvents(BODY, GDACS_EVENTS_URL);
    expect(problems).toEqual([]);
    expect(records.map((r) => [r.id, r.alert_level, r.country])).toEqual([
      ['gdacs-EQ-1569499', 'green', 'Afghanistan'],
      ['gdacs-FL-1104121', 'orange', 'India'],
      ['gdacs-EQ-1568845', 'green', 'Afghanistan'],
      ['gdacs-EQ-1568011', 'green', 'India'],
      ['gdacs-EQ-1567628', 'green', 'Tajikistan'],
      ['gdacs-EQ-1567272', 'green', 'Tajikistan'],
      ['gdacs-EQ-1567240', 'green', 'Pakistan'],
    ]);
    expect(records[0]).toEqual({
      id: 'gdacs-EQ-1569499',
      event_type: 'EQ',
      event_id: 1569499,
      episode_id: 1737725,
      name: 'Earthquake in Afghanistan',
      alert_level: 'green',
      alert_score: 1,
      episode_alert_level: 'green',
      from: '2026-10-04T20:27:25.000Z',
      to: '2026-10-04T20:27:25.000Z',
      modified: '2026-10-04T21:07:42.000Z',
      current: true,
      country: 'Afghanistan',
      iso3: 'AFG',
      affected_countries: [{ iso2: 'AF', iso3: 'AFG', name: 'Afghanistan' }],
      severity: { value: 4.8, text: 'Magnitude 4.8M, Depth:248.906km', unit: 'M' },
      lat: 36.611,
      lon: 71.0216,
      url: 'https://www.gdacs.org/report.aspx?eventid=1569499&episodeid=1737725&eventtype=EQ',
      provider: 'NEIC',
      source_url: GDACS_EVENTS_URL,
    });
    // The flood: Orange overall though its latest episode is Green; it lasted two months; over.
    expect(records[1]).toMatchObject({
      event_type: 'FL',
      alert_level: 'orange',
      episode_alert_level: 'green',
      episode_id: 18,
      current: false,
      from: '2026-08-09T01:00:00.000Z',
      to: '2026-10-03T01:00:00.000Z',
      provider: 'GLOFAS',
      severity: { value: 0, text: 'Magnitude 0', unit: null },
    });
  });

  it('keeps the id when GDACS publishes a new episode of the event', () => {
    const doc = JSON.parse(BODY);
    const before = parseGdacsEvents(BODY, GDACS_EVENTS_URL).records.map((r) => r.id);
    doc.features[1].properties.episodeid = 19;
    doc.features[1].properties.alertlevel = 'Red';
    const after = parseGdacsEvents(JSON.stringify(doc), GDACS_EVENTS_URL).records;
    expect(after.map((r) => r.id)).toEqual(before);
    expect(after[1]).toMatchObject({ id: 'gdacs-FL-1104121', episode_id: 19, alert_level: 'red' });
  });

  it('skips a broken event, names it, keeps the rest', () => {
    const doc = JSON.parse(BODY);
    doc.features[0].properties.alertlevel = 'Purple';
    doc.features[2].properties.eventtype = 'XX';
    doc.features[3].properties.fromdate = '25 Sep 2026';
    doc.features[4].geometry = { type: 'Polygon', coordinates: [] };
    doc.features[6] = doc.features[5];
    const { records, problems } = parseGdacsEvents(JSON.stringify(doc), GDACS_EVENTS_URL);
    expect(records.map((r) => r.id)).toEqual(['gdacs-FL-1104121', 'gdacs-EQ-1567272']);
    expect(problems).toEqual([
      { entry: 0, id: 'gdacs-EQ-1569499', reason: 'alertlevel is not Green, Orange or Red ("Purple")' },
      { entry: 2, id: null, reason: 'eventtype is not one of EQ, TC, FL, VO, DR, WF ("XX")' },
      { entry: 3, id: 'gdacs-EQ-1568011', reason: 'fromdate is not a date-time ("25 Sep 2026")' },
      { entry: 4, id: 'gdacs-EQ-1567628', reason: 'geometry is not a Point ("Polygon")' },
      { entry: 6, id: 'gdacs-EQ-1567272', reason: 'the same event twice' },
    ]);
  });

  it('reads an empty body (GDACS answers 204 when nothing is found) as no events', () => {
    expect(parseGdacsEvents('', GDACS_EVENTS_URL)).toEqual({ records: [], problems: [] });
  });

  it('throws for a body that is not a GDACS event list', () => {
    expect(() =>
      parseGdacsEvents('<!DOCTYPE html><html><body>Service Unavailable</body></html>', GDACS_EVENTS_URL),
    ).toThrow(/HTML/);
    expect(() => parseGdacsEvents(QUAKES, GDACS_EVENTS_URL)).toThrow(/not a GDACS event list/);
    expect(() => parseGdacsEvents('{"message":"An error has occurred."}', GDACS_EVENTS_URL)).toThrow(FeedFormatError);
    expect(() => parseGdacsEvents(BODY.slice(0, 2000), GDACS_EVENTS_URL)).toThrow(/not JSON/);
  });
});
