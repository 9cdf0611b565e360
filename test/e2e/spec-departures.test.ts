/**
 * The departures from the interface spec that were aligned (docs/spec-departures.md), through the
 * agent tool server over streamable HTTP and the API behind it: the listing's tool name
 * `get_watchlist_alertsLabel` still answers, `search_vessels` finds by name and by MMSI,
 * `search_events` reads payload values at any depth, and `query_threats` filters by type and
 * location as the spec's tool table says, and lists active threats by default; and a voice
 * report's answer keeps to its schema however long the transcript.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, baseUrl, call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { aisReceiver, positionReport, staticReport } from '../support/ais.js';
import { denials, ingest, library, site, until } from '../support/threat-site.js';
import { MAX_INCIDENT_DESCRIPTION } from '../../shared/schemas/incidents.js';

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: Array<{ type: string; text?: string }>;
}

let org: RegisteredTenant;
let client: Client;

const tool = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;
const items = (answer: ToolAnswer) => {
  expect(answer.isError, answer.content.map((c) => c.text).join('\n')).toBeFalsy();
  return answer.structuredContent!.items as Record<string, any>[];
};

beforeAll(async () => {
  org = await registerTenant('Departures');
  // Enterprise: whatever the free plan leaves out (threat libraries, call rates) is not the question here.
  const admin = await asAdmin();
  const plan = await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { plan: 'enterprise' } });
  expect(plan.status, plan.text).toBe(200);
  const key = await call('POST', '/api/v1/portal/api-keys', {
    token: org.token,
    body: { name: 'departures', role: 'OPERATOR' },
  });
  expect(key.status, key.text).toBe(201);
  client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl()), {
      requestInit: { headers: { authorization: `Bearer ${key.body.api_key}` } },
    }),
  );
});

afterAll(async () => {
  await client?.close();
});

describe('get_watchlist_alertsLabel', () => {
  it('answers as get_watchlist_alerts, which is the name tools/list shows', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('get_watchlist_alerts');
    expect(names).not.toContain('get_watchlist_alertsLabel');
    const added = await tool('add_watchlist', { entity_type: 'domain', value: 'departures.example', label: 'ours' });
    expect(added.isError, added.content[0]?.text).toBeFalsy();
    const byListing = await tool('get_watchlist_alertsLabel', { limit: 5 });
    expect(byListing.isError, byListing.content[0]?.text).toBeFalsy();
    expect(byListing.structuredContent).toEqual((await tool('get_watchlist_alerts', { limit: 5 })).structuredContent);
    // A name that is neither is still an unknown tool.
    await expect(tool('get_watchlist_alertsLabels', {})).rejects.toThrow(/Unknown tool/);
  });
});

describe('search_vessels', () => {
  it('finds a vessel by a part of its name in any case, and by its MMSI', async () => {
    const sensorId = await aisReceiver(org.token, { lat: 51, lon: 1 });
    const now = Date.now();
    const vessels = [
      { mmsi: 235000731, name: 'MORNING  GLORY', at: { lat: 51.01, lon: 1.01 } },
      { mmsi: 235000732, name: 'EVENING TIDE', at: { lat: 51.02, lon: 1.02 } },
    ];
    const reports = vessels.flatMap((v) => [
      staticReport(v.mmsi, new Date(now - 20 * 60_000), {
        name: v.name,
        callsign: 'DEP1',
        imo: 9300731,
        cargo: 70,
        destination: 'DOVER',
      }),
      positionReport(v.mmsi, new Date(now - 10 * 60_000), { ...v.at, sog: 5, cog: 90 }),
    ]);
    const batch = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: {
        events: reports.map((r) => ({
          type: 'ais.position',
          sensor_id: sensorId,
          occurred_at: r.at.toISOString(),
          payload: { nmea: r.nmea.length === 1 ? r.nmea[0] : r.nmea },
        })),
      },
    });
    expect(batch.status, batch.text).toBe(201);
    // The tracker reads AIS from the bus, moments after the events are stored.
    await until(
      async () => items(await tool('search_vessels', { hours: 1 })),
      (list) => list.length === 2 && list.every((v) => v.name !== null),
      'both vessels tracked with their names',
      30_000,
    );

    const glory = items(await tool('search_vessels', { name: 'morning glory' }));
    expect(glory.map((v) => v.mmsi)).toEqual(['235000731']);
    expect(glory[0]).toMatchObject({ name: 'MORNING  GLORY' });
    expect(items(await tool('search_vessels', { name: 'Tide' })).map((v) => v.mmsi)).toEqual(['235000732']);
    expect(items(await tool('search_vessels', { name: 'kraken' }))).toEqual([]);
    expect(items(await tool('search_vessels', { mmsi: '235000732' })).map((v) => v.name)).toEqual(['EVENING TIDE']);
    expect(items(await tool('search_vessels', { mmsi: '235000999' }))).toEqual([]);
    // With an area they combine: the name must match there too.
    const near = { lat: 51.01, lon: 1.01, radius_km: 0.5 };
    expect(items(await tool('search_vessels', { ...near, name: 'glory' })).map((v) => v.mmsi)).toEqual(['235000731']);
    expect(items(await tool('search_vessels', { ...near, name: 'tide' }))).toEqual([]);
    const bad = await tool('search_vessels', { mmsi: '2350' });
    expect(bad.isError).toBe(true);
    // The API route answers the same.
    const listed = await call('GET', '/api/v1/vessels', { token: org.token, query: { name: 'GLORY' } });
    expect(listed.body.map((v: any) => v.mmsi)).toEqual(['235000731']);
  });
});

describe('search_events', () => {
  it('finds words in payload values nested at any depth', async () => {
    const env = await call('POST', '/api/v1/environments', {
      token: org.token,
      body: { name: 'Yard', type: 'building' },
    });
    const event = await call('POST', '/api/v1/events', {
      token: org.token,
      body: {
        type: 'intrusion.detected',
        environment_id: env.body.environment_id,
        payload: { camera: { site: { label: 'quayside' } }, tags: ['night', { note: 'ladder' }] },
      },
    });
    expect(event.status, event.text).toBe(201);
    for (const q of ['quayside', 'LADDER night', 'quayside ladder intrusion.detected']) {
      expect(
        items(await tool('search_events', { q })).map((e) => e.event_id),
        q,
      ).toEqual([event.body.event_id]);
    }
    expect(items(await tool('search_events', { q: 'quayside crane' }))).toEqual([]);
  });
});

describe('query_threats', () => {
  it('lists active threats by default, filtered by type, site and severity as the spec says', async () => {
    const { environmentId } = await site(org);
    const other = await call('POST', '/api/v1/environments', {
      token: org.token,
      body: { name: 'Elsewhere', type: 'building' },
    });
    await library(org, [denials]);
    // The definition matches the third denial at the entrance within the hour.
    for (let i = 0; i < 3; i++) await ingest(org, environmentId);
    const seen = await until(
      async () => items(await tool('query_threats', {})),
      (list) => list.length === 1,
      'the threat to be counted',
    );
    const id = seen[0]!.threat_id;
    const ids = async (args: Record<string, unknown>) =>
      items(await tool('query_threats', args)).map((t) => t.threat_id);
    expect(await ids({ event_type: 'access.denied' })).toEqual([id]);
    expect(await ids({ event_type: 'intrusion.detected' })).toEqual([]);
    expect(await ids({ environment_id: environmentId })).toEqual([id]);
    expect(await ids({ environment_id: other.body.environment_id })).toEqual([]);
    expect(await ids({ environment_id: environmentId, event_type: 'access.denied', severity: 'high' })).toEqual([id]);
    expect(await ids({ environment_id: environmentId, severity: 'low' })).toEqual([]);
    const unknown = await tool('query_threats', { environment_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toMatch(/Environment not found/);
    const badType = await call('GET', '/api/v1/threats', { token: org.token, query: { event_type: 'no.such.type' } });
    expect(badType.status).toBe(422);

    // "Active threats": a dismissed one leaves the default list; `dismissed` or `all` shows it.
    const dismissed = await call('POST', `/api/v1/threats/${id}/dismiss`, { token: org.token, body: {} });
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(await ids({})).toEqual([]);
    expect(await ids({ status: 'dismissed' })).toEqual([id]);
    expect(await ids({ status: 'all', environment_id: environmentId })).toEqual([id]);
  });
});

describe('incidents.voice', () => {
  it('answers a long transcript within its own schema: the description cut, the transcript whole', async () => {
    const transcript = 'A man climbed the north fence near gate four. '.repeat(150).trim();
    expect(transcript.length).toBeGreaterThan(MAX_INCIDENT_DESCRIPTION);
    // call() holds every answer to the route's documented schema (description at most 5000).
    const res = await call('POST', '/api/v1/incidents/voice', { token: org.token, body: { transcript } });
    expect(res.status, res.text).toBe(201);
    expect(Array.from(res.body.description as string).length).toBeLessThanOrEqual(MAX_INCIDENT_DESCRIPTION);
    expect(res.body.description.endsWith('…')).toBe(true);
    expect(res.body.voice.transcript).toBe(transcript);
  });
});
