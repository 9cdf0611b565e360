/** The NWS alerts parser against real api.weather.gov GeoJSON responses and a real CAP Atom index. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { NWS_ALERTS_URL, parseNwsAlerts } from '../../shared/feeds/nws-alerts.js';

const sample = (name: string) => readFileSync(new URL(`../fixtures/feeds/nws-alerts/${name}`, import.meta.url), 'utf8');
const POINT_2017 = sample('alerts-point.2017-12-05.json');
const ZONE_2023 = sample('alerts-zone.2023-09-13.json');
const ATOM = sample('cap-atom-us.2017-09-02.trimmed.xml');
const ATOM_URL = 'https://alerts.weather.gov/cap/us.php?x=0';
const QUAKES = readFileSync(
  new URL('../fixtures/feeds/usgs-quakes/significant_month.2020-06-08.geojson', import.meta.url),
  'utf8',
);

describe('parseNwsAlerts, GeoJSON from api.weather.gov', () => {
  it('reads a storm-based warning with its polygon, codes and times in UTC', () => {
    const { records, problems } = parseNwsAlerts(ZONE_2023, NWS_ALERTS_URL);
    expect(problems).toEqual([]);
    expect(records).toEqual([
      {
        id: 'urn:oid:2.49.0.1.840.0.7b7a54584f6725c7883c2f41d52be172ea827776.001.1',
        event: 'Severe Thunderstorm Warning',
        tsunami: false,
        status: 'Actual',
        message_type: 'Alert',
        severity: 'Severe',
        urgency: 'Immediate',
        certainty: 'Observed',
        // Raw: "sent": "2023-09-12T20:12:00-06:00"
        sent: '2023-09-13T02:12:00.000Z',
        effective: '2023-09-13T02:12:00.000Z',
        onset: '2023-09-13T02:12:00.000Z',
        expires: '2023-09-13T02:45:00.000Z',
        ends: '2023-09-13T02:45:00.000Z',
        headline:
          'Severe Thunderstorm Warning issued September 12 at 8:12PM MDT until September 12 at 8:45PM MDT by NWS El Paso Tx/Santa Teresa NM',
        area_desc: 'Sierra, NM',
        sender_name: 'NWS El Paso Tx/Santa Teresa NM',
        ugc: ['NMC051'],
        same: ['035051'],
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [-107.22, 33.22],
              [-107.16, 33.31],
              [-106.8199999, 33.25],
              [-106.95, 33.03],
              [-107.22, 33.22],
            ],
          ],
        },
        url: 'https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.7b7a54584f6725c7883c2f41d52be172ea827776.001.1',
        source_url: NWS_ALERTS_URL,
      },
    ]);
  });

  it('reads the 2017 shape (ids NWS-IDP-PROD-n, the office in `sender`, no polygon)', () => {
    const { records, problems } = parseNwsAlerts(POINT_2017, NWS_ALERTS_URL);
    expect(problems).toEqual([]);
    expect(records.map((r) => [r.id, r.event, r.sender_name, r.polygon, r.ugc.length, r.same.length])).toEqual([
      ['NWS-IDP-PROD-2587691', 'Special Weather Statement', 'NWS Albuquerque NM', null, 40, 25],
      ['NWS-IDP-PROD-2587152', 'Special Weather Statement', 'NWS Albuquerque NM', null, 40, 25],
    ]);
    // Raw: "onset": "2017-12-05T23:04:00+00:00", "ends": null
    expect(records[0]).toMatchObject({ onset: '2017-12-05T23:04:00.000Z', ends: null, severity: 'Moderate' });
  });

  it('flags tsunami messages (a real alert with its event changed to one; no real capture of a tsunami alert was found)', () => {
    const doc = JSON.parse(ZONE_2023);
    doc.features[0].properties.event = 'Tsunami Warning';
    expect(parseNwsAlerts(JSON.stringify(doc), NWS_ALERTS_URL).records[0]).toMatchObject({
      event: 'Tsunami Warning',
      tsunami: true,
    });
  });

  it('skips a broken alert, names it, keeps the rest', () => {
    const doc = JSON.parse(POINT_2017);
    const [a, b] = doc.features;
    doc.features = [
      { ...a, properties: { ...a.properties, severity: 'Catastrophic' } },
      { ...b, properties: { ...b.properties, effective: 'December 5' } },
      { ...b, geometry: { type: 'Point', coordinates: [0, 0] } },
      { ...a, properties: { ...a.properties, event: '' } },
      b,
      b,
    ];
    const { records, problems } = parseNwsAlerts(JSON.stringify(doc), NWS_ALERTS_URL);
    expect(records.map((r) => r.id)).toEqual(['NWS-IDP-PROD-2587152']);
    expect(problems).toEqual([
      { entry: 0, id: 'NWS-IDP-PROD-2587691', reason: 'severity is not a CAP severity ("Catastrophic")' },
      { entry: 1, id: 'NWS-IDP-PROD-2587152', reason: 'effective is not a CAP date-time ("December 5")' },
      { entry: 2, id: 'NWS-IDP-PROD-2587152', reason: 'geometry is not a Polygon or null ("Point")' },
      { entry: 3, id: 'NWS-IDP-PROD-2587691', reason: 'no event' },
      { entry: 5, id: 'NWS-IDP-PROD-2587152', reason: 'the same alert twice' },
    ]);
  });
});

describe('parseNwsAlerts, the CAP Atom index', () => {
  it('reads every entry: cap fields, geocodes, the polygon turned to [longitude, latitude]', () => {
    const { records, problems } = parseNwsAlerts(ATOM, ATOM_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(12);
    expect(records.filter((r) => r.polygon).length).toBe(3);
    // Raw: <cap:polygon>30.99,-86.74 30.99,-86.71 30.75,-86.72 30.68,-86.88 30.7,-86.9 30.82,-86.75 30.99,-86.74</cap:polygon>
    expect(records[4]).toMatchObject({
      id: 'AL125867730254.FloodWarning.1258678213C0AL.MOBFLSMOB.d7d9a0120fb28b96d45eb1f0b1cd09c9',
      event: 'Flood Warning',
      severity: 'Moderate',
      urgency: 'Expected',
      certainty: 'Likely',
      sent: null,
      effective: '2017-09-02T01:25:00.000Z',
      area_desc: 'Covington; Escambia',
      ugc: ['ALC039', 'ALC053'],
      same: ['001039', '001053'],
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [-86.74, 30.99],
            [-86.71, 30.99],
            [-86.72, 30.75],
            [-86.88, 30.68],
            [-86.9, 30.7],
            [-86.75, 30.82],
            [-86.74, 30.99],
          ],
        ],
      },
      url: 'https://alerts.weather.gov/cap/wwacapget.php?x=AL125867730254.FloodWarning.1258678213C0AL.MOBFLSMOB.d7d9a0120fb28b96d45eb1f0b1cd09c9',
      source_url: ATOM_URL,
    });
    expect(records.map((r) => r.event)).toContain('Excessive Heat Warning');
  });

  it('names a broken entry and keeps the rest', () => {
    const broken = ATOM.replace('<cap:urgency>Expected</cap:urgency>', '<cap:urgency>Soon</cap:urgency>').replace(
      '<cap:polygon>35.1,-91.33',
      '<cap:polygon>35.1;-91.33',
    );
    const { records, problems } = parseNwsAlerts(broken, ATOM_URL);
    expect(records).toHaveLength(10);
    expect(problems.map((p) => [p.entry, p.reason.slice(0, 40)])).toEqual([
      [0, 'urgency is not a CAP urgency ("Soon")'],
      [5, 'polygon is not CAP "lat,lon" pairs ("35.'],
    ]);
  });
});

describe('parseNwsAlerts, ids and wrong documents', () => {
  it('gives the same ids on every poll', () => {
    for (const body of [POINT_2017, ZONE_2023, ATOM]) {
      expect(parseNwsAlerts(body, NWS_ALERTS_URL).records.map((r) => r.id)).toEqual(
        parseNwsAlerts(body, NWS_ALERTS_URL).records.map((r) => r.id),
      );
    }
  });

  it('throws for a body that is not an alerts document', () => {
    expect(() =>
      parseNwsAlerts('<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>', NWS_ALERTS_URL),
    ).toThrow(FeedFormatError);
    expect(() => parseNwsAlerts('<html><body>maintenance</body></html>', NWS_ALERTS_URL)).toThrow(
      /expected an Atom <feed>/,
    );
    expect(() => parseNwsAlerts(ATOM.slice(0, 3000), ATOM_URL)).toThrow(/not well-formed XML/);
    expect(() =>
      parseNwsAlerts(
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>x</id><title>news</title></entry></feed>',
        ATOM_URL,
      ),
    ).toThrow(/not of CAP alerts/);
    // A GeoJSON FeatureCollection of something else (USGS quakes) is not read as alerts.
    expect(() => parseNwsAlerts(QUAKES, NWS_ALERTS_URL)).toThrow(/not an alerts collection/);
    expect(() => parseNwsAlerts('{"title":"Not Found","status":404}', NWS_ALERTS_URL)).toThrow(/FeatureCollection/);
    expect(parseNwsAlerts('{"type":"FeatureCollection","features":[]}', NWS_ALERTS_URL)).toEqual({
      records: [],
      problems: [],
    });
  });
});
