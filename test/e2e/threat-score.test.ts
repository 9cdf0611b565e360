/**
 * The seven-factor threat score through the real API, DynamoDB Local and the stream worker: every
 * factor from the tenant's own data (watchlist, threat definitions' indicators, events naming the
 * target, the offline IP database, zones, assets), the same answer on `/v1`, and alerts raised
 * when a score touches a watched entity.
 */
import { describe, expect, it } from 'vitest';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { until } from '../support/threat-site.js';

const FACTORS = [
  'indicators',
  'history',
  'recency_frequency',
  'geography',
  'behaviour',
  'proximity',
  'context',
] as const;

interface Factor {
  value: number;
  weight: number;
  contribution: number;
  detail: string;
}
interface Score {
  target: string;
  composite_score: number;
  severity: string;
  matched_signatures: string[];
  factors: Record<(typeof FACTORS)[number], Factor>;
  watchlist: { entry_id: string; entity_type: string; value: string; label: string }[];
  geography: {
    country: string | null;
    asn: number | null;
    as_org: string | null;
    scope: string | null;
    zones: string[];
  };
  notes: string[];
}

async function score(org: RegisteredTenant, query: Record<string, string>): Promise<Score> {
  const res = await call('GET', '/api/v1/threat-score', {
    token: org.token,
    query: { tenant_id: org.tenantId, ...query },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as Score;
}

/** Each factor's contribution is 100 x value x weight, and the composite is their sum, rounded. */
function expectConsistent(s: Score) {
  expect(Object.keys(s.factors).sort()).toEqual([...FACTORS].sort());
  const weights = Object.values(s.factors).reduce((sum, f) => sum + f.weight, 0);
  expect(weights).toBeCloseTo(1, 6);
  for (const f of Object.values(s.factors)) {
    expect(f.value).toBeGreaterThanOrEqual(0);
    expect(f.value).toBeLessThanOrEqual(1);
    expect(f.contribution).toBeCloseTo(100 * f.value * f.weight, 1);
    expect(f.detail.length).toBeGreaterThan(0);
  }
  expect(s.composite_score).toBe(
    Math.round(Object.values(s.factors).reduce((sum, f) => sum + 100 * f.value * f.weight, 0)),
  );
  const band =
    s.composite_score >= 75
      ? 'CRITICAL'
      : s.composite_score >= 50
        ? 'HIGH'
        : s.composite_score >= 25
          ? 'MEDIUM'
          : 'LOW';
  expect(s.severity).toBe(band);
}

describe('threatScore.get', () => {
  it('scores an IP on the watchlist higher than the same IP off it, both with all seven factors, and raises one alert an hour', async () => {
    const org = await registerTenant('Score watch');
    const other = await registerTenant('Score other');
    const before = await score(org, { target: '8.8.8.8', target_type: 'ip', context: 'security' });
    expectConsistent(before);
    // Geography from the offline database: Google's resolver is in AS15169.
    expect(before.geography).toMatchObject({ asn: 15169, scope: 'public' });
    expect(before.factors.geography.value).toBe(0.2);
    expect(before.factors.indicators.value).toBe(0);
    expect(before.watchlist).toEqual([]);
    expect(before.notes.join(' ')).toMatch(/No event of the tenant names the target/);

    const entry = await call('POST', '/api/v1/watchlist/entries', {
      token: org.token,
      body: { entity_type: 'ip', value: '8.8.8.0/24', label: 'Resolver range' },
    });
    expect(entry.status, entry.text).toBe(201);
    const after = await score(org, { target: '8.8.8.8', target_type: 'ip', context: 'security' });
    expectConsistent(after);
    expect(after.factors.indicators.value).toBe(1);
    expect(after.factors.indicators.detail).toMatch(/Resolver range/);
    expect(after.watchlist).toEqual([
      { entry_id: entry.body.entry_id, entity_type: 'ip', value: '8.8.8.0/24', label: 'Resolver range' },
    ]);
    expect(after.composite_score).toBeGreaterThan(before.composite_score);
    // The documented example: 25 (indicators) + 2 (geography) + 10 (context) against 2 + 2.
    expect([before.composite_score, after.composite_score]).toEqual([4, 37]);
    expect(after.severity).toBe('MEDIUM');

    // Another tenant's watchlist is not this one's.
    expect((await score(other, { target: '8.8.8.8', target_type: 'ip', context: 'security' })).composite_score).toBe(4);

    // The score touched a watched entity: one alert, however often it is scored within the hour.
    await score(org, { target: '8.8.8.8', target_type: 'ip', context: 'maritime' });
    const alerts = await until(
      async () =>
        (await call('GET', '/api/v1/watchlist/alerts', { token: org.token, query: { tenant_id: org.tenantId } }))
          .body as Record<string, unknown>[],
      (list) => Array.isArray(list) && list.length > 0,
      'the score alert',
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      entry_id: entry.body.entry_id,
      entity_type: 'ip',
      value: '8.8.8.0/24',
      label: 'Resolver range',
      trigger: 'score',
      details: { target: '8.8.8.8', target_type: 'ip', context: 'security', composite_score: 37, severity: 'MEDIUM' },
    });
    expect(
      (await call('GET', '/api/v1/watchlist/alerts', { token: other.token, query: { tenant_id: other.tenantId } }))
        .body,
    ).toEqual([]);
  }, 60_000);

  it("takes history, recency, behaviour and matched signatures from the tenant's events naming the target, once the worker indexed them", async () => {
    const org = await registerTenant('Score history');
    const lib = await call('POST', '/api/v1/threat-libraries', {
      token: org.token,
      body: {
        name: 'Known scanners',
        vertical: 'security',
        definitions: [
          {
            name: 'Scanner address',
            description: 'An address seen scanning the perimeter cameras.',
            severity: 'high',
            weight: 0.4,
            match: { event_types: ['intrusion.detected', 'sensor.alert'] },
            indicators: { ips: ['198.51.100.77'] },
          },
        ],
      },
    });
    expect(lib.status, lib.text).toBe(201);
    const ip = '198.51.100.77';
    const other = '198.51.100.78';
    const incidents = new Set<string>();
    for (const [type, addr] of [
      ['intrusion.detected', ip],
      ['sensor.alert', ip],
      ['sensor.alert', ip],
      ['motion.detected', other],
    ] as const) {
      const res = await call('POST', '/api/v1/events', {
        token: org.token,
        body: { type, payload: { network: { source_ip: addr } } },
      });
      expect(res.status, res.text).toBe(201);
      if (addr === ip && res.body.incident_id) incidents.add(res.body.incident_id);
    }
    // The intrusion with its matched definition is over the tenant's threshold: it opened an incident.
    expect(incidents.size).toBeGreaterThan(0);
    // Three events naming it, each matching the definition, and the incidents they opened at ingest:
    // 3 x 0.02 + 3 x 0.1 + 0.25 an incident.
    const history = Math.min(1, Math.round((3 * 0.02 + 3 * 0.1 + 0.25 * incidents.size) * 1000) / 1000);
    const s = await until(
      () => score(org, { target: ip, target_type: 'ip', context: 'security' }),
      (v) => v.factors.history.value === history,
      'the mentions indexed',
    );
    expectConsistent(s);
    expect(s.factors.history.detail).toMatch(
      new RegExp(`^3 event\\(s\\), ${incidents.size} incident\\(s\\), 3 event\\(s\\) matching`),
    );
    // Named just now, on one day of the last 30: 0.6 x ~1 + 0.4 x 0.1.
    expect(s.factors.recency_frequency.value).toBeCloseTo(0.64, 2);
    // Every event naming it matched a definition.
    expect(s.factors.behaviour.value).toBe(1);
    // In the definition's indicators: its weight.
    expect(s.factors.indicators.value).toBe(0.4);
    expect(s.matched_signatures).toEqual(['Scanner address']);
    // A documentation address: geography does not apply.
    expect(s.geography.scope).toBe('documentation');
    expect(s.factors.geography.value).toBe(0);

    // The address next to it was named once, by an event that matched nothing (indexed by the
    // worker on its own time: the last event's mention may land after the first three's).
    const o = await until(
      () => score(org, { target: other, target_type: 'ip', context: 'security' }),
      (v) => v.factors.history.value === 0.02,
      'the other address indexed',
    );
    expect(o.factors.history.value).toBe(0.02);
    expect(o.factors.behaviour.value).toBe(0);
    expect(o.matched_signatures).toEqual([]);
    expect(o.composite_score).toBeLessThan(s.composite_score);
  }, 60_000);

  it('scores a location by the zones and the critical assets around it', async () => {
    const org = await registerTenant('Score place');
    const env = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Substation', type: 'substation' } })
    ).body;
    const here = { lat: 52.37, lon: 4.89 };
    const zone = await call('POST', '/api/v1/zones', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Transformer yard',
        type: 'restricted',
        security_level: 5,
        geofence: { type: 'Circle', center: [here.lon, here.lat], radius_m: 200 },
      },
    });
    expect(zone.status, zone.text).toBe(201);
    const asset = await call('POST', '/api/v1/assets', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Transformer T1',
        type: 'equipment',
        criticality: 'critical',
        location: here,
      },
    });
    expect(asset.status, asset.text).toBe(201);
    const s = await score(org, {
      target: `${here.lat},${here.lon}`,
      target_type: 'location',
      context: 'infrastructure',
    });
    expectConsistent(s);
    expect(s.geography.zones).toEqual([zone.body.zone_id]);
    expect(s.factors.geography.value).toBe(1);
    expect(s.factors.proximity.value).toBe(1);
    expect(s.factors.proximity.detail).toMatch(/Transformer T1/);
    // 10 (geography) + 25 (proximity) + 10 (context: location matters fully in infrastructure).
    expect(s.composite_score).toBe(45);
    // Twenty kilometres away, nothing is near.
    const far = await score(org, {
      target: `${here.lat + 0.18},${here.lon}`,
      target_type: 'location',
      context: 'infrastructure',
    });
    expect(far.composite_score).toBe(0);
  }, 60_000);

  it('says what it does not know, refuses a target not of its type (422 naming target), and answers 404 for another tenant', async () => {
    const org = await registerTenant('Score edges');
    const other = await registerTenant('Score edges other');
    const vessel = await score(org, { target: '235009802', target_type: 'mmsi', context: 'maritime' });
    expectConsistent(vessel);
    expect(vessel.notes.join(' ')).toMatch(/no AIS data for this MMSI/);
    for (const [target, target_type] of [
      ['8.8.8', 'ip'],
      ['not a host', 'domain'],
      ['12345', 'mmsi'],
      ['91,0', 'location'],
    ]) {
      const res = await call('GET', '/api/v1/threat-score', {
        token: org.token,
        query: { tenant_id: org.tenantId, target: target!, target_type: target_type! },
      });
      expect(res.status, `${target_type} ${target}`).toBe(422);
      expect(JSON.stringify(res.body)).toMatch(/target/);
    }
    const bad = await call('GET', '/api/v1/threat-score', {
      token: org.token,
      query: { tenant_id: org.tenantId, target: 'x', target_type: 'planet' },
    });
    expect(bad.status).toBe(422);
    const foreign = await call('GET', '/api/v1/threat-score', {
      token: org.token,
      query: { tenant_id: other.tenantId, target: '8.8.8.8', target_type: 'ip' },
    });
    expect(foreign.status).toBe(404);
    // A domain under a country-code TLD.
    const domain = await score(org, { target: 'Mail.Example.CO.UK.', target_type: 'domain' });
    expect(domain).toMatchObject({ target: 'mail.example.co.uk', geography: { country: 'GB' } });
  }, 60_000);
});

describe('developer.threatScore', () => {
  it('answers the same score to a free key, with its rate-limit headers', async () => {
    const key = await call('POST', '/v1/auth/keys', {
      body: { email: `score-${Math.random().toString(36).slice(2, 10)}@dev.example`, tier: 'free' },
    });
    expect(key.status, key.text).toBe(201);
    const res = await call('GET', '/v1/threat-score', {
      token: key.body.api_key,
      query: { target: '1.1.1.1', target_type: 'ip', context: 'defense' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    expectConsistent(res.body as Score);
    expect(res.body).toMatchObject({ target: '1.1.1.1', context: 'defense', geography: { asn: 13335 } });
    const bad = await call('GET', '/v1/threat-score', { token: key.body.api_key, query: { target: '1.1.1.1' } });
    expect(bad.status).toBe(422);
  });
});
