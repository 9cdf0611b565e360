/**
 * The agent tool server end to end (docs/mcp.md): the SDK's own MCP Client over stdio (the server
 * spawned as `npx gatehouse-mcp` runs it, against the test run's local server) and over stateless
 * streamable HTTP (POST /mcp of that server). Every tool is called with seeded data, and each
 * structuredContent is checked against the tool's outputSchema (Ajv, JSON Schema 2020-12); a
 * VIEWER key is refused the acting tools as tool errors; tenant B's key never sees tenant A's
 * incident, vessel or event; the HTTP transport refuses a foreign Origin or Host and a missing
 * credential; the audit names the key and the tool.
 */
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_TOOL_NAMES, TOOLS } from '../../shared/mcp/tools.js';
import { asAdmin, baseUrl, call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { CABLE_KML, positionReport, staticReport } from '../support/ais.js';
import { uploadMapFile } from '../support/geo-files.js';
import { auditEntriesOf } from '../support/seed.js';
import { until } from '../support/threat-site.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const addFormats = addFormatsModule.default;

interface World {
  org: RegisteredTenant;
  key: string;
  keyId: string;
  incidentId: string;
  eventId: string;
  mmsi: string;
  sensorId: string;
  fibreSensorId: string;
  workflowId: string;
  integrationId: string;
  word: string;
  at: { lat: number; lon: number };
}

/** The test cable and two more, for paging. */
const THREE_CABLES = CABLE_KML.replace(
  '</Document>',
  '<Placemark><name>Channel Link 2</name><LineString><coordinates>1.4,51.0,0 1.8,51.1,0</coordinates></LineString></Placemark>' +
    '<Placemark><name>Channel Link 3</name><LineString><coordinates>1.4,50.9,0 1.8,51.0,0</coordinates></LineString></Placemark></Document>',
);

let a: World;
let b: World;
let viewerKey: string;

async function apiKey(org: RegisteredTenant, role: string): Promise<{ key: string; keyId: string }> {
  const res = await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: `mcp ${role}`, role } });
  expect(res.status, res.text).toBe(201);
  return { key: res.body.api_key, keyId: res.body.key_id };
}

/** A tenant with a site, an AIS receiver and a vessel it saw, an event and an incident near it, a cable, a fibre sensor with frames, a playbook and a drone dock. */
async function world(label: string, at: { lat: number; lon: number }, mmsi: number): Promise<World> {
  const org = await registerTenant(label);
  const admin = await asAdmin();
  // Enterprise: the tool calls of this file must not meet the free plan's 100 calls a minute.
  expect(
    (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { plan: 'enterprise' } })).status,
  ).toBe(200);
  const post = async (path: string, body: unknown) => {
    const res = await call('POST', path, { token: org.token, body });
    expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const word = `${label.toLowerCase()}marker${Math.random().toString(36).slice(2, 8)}`;
  const env = await post('/api/v1/environments', { name: `${label} harbour`, type: 'port', location: at });
  const sensor = await post('/api/v1/sensors', {
    environment_id: env.environment_id,
    name: 'AIS receiver',
    type: 'ais_receiver',
    location: at,
  });
  const now = Date.now();
  const reports = [
    staticReport(mmsi, new Date(now - 20 * 60_000), {
      name: `${label.toUpperCase()} STAR`,
      callsign: 'MCP1',
      imo: 9300009,
      cargo: 70,
      destination: 'DOVER',
    }),
    ...[15, 10, 5].map((m, i) =>
      positionReport(mmsi, new Date(now - m * 60_000), {
        lat: at.lat + 0.005 * i,
        lon: at.lon + 0.005 * i,
        sog: 6,
        cog: 45,
      }),
    ),
  ];
  await post('/api/v1/events/batch', {
    events: reports.map((r) => ({
      type: 'ais.position',
      sensor_id: sensor.sensor_id,
      occurred_at: r.at.toISOString(),
      payload: { nmea: r.nmea.length === 1 ? r.nmea[0] : r.nmea },
    })),
  });
  const event = await post('/api/v1/events', {
    type: 'intrusion.detected',
    sensor_id: sensor.sensor_id,
    environment_id: env.environment_id,
    occurred_at: new Date(now - 60_000).toISOString(),
    location: { lat: at.lat + 0.001, lon: at.lon },
    description: `Fence cut near gate 4 (${word})`,
    payload: { gate: '4' },
  });
  const incident = await post('/api/v1/incidents', {
    title: `Intrusion at gate 4 (${word})`,
    severity: 'high',
    location: at,
    occurred_at: new Date(now - 60_000).toISOString(),
  });
  const upload = await uploadMapFile(org.token, env.environment_id, 'cables.kml', Buffer.from(THREE_CABLES, 'utf8'));
  expect(upload.status).toBe(201);
  const tagged = await call(
    'PATCH',
    `/api/v1/environments/${env.environment_id}/infrastructure/${upload.body.file_id}/lines`,
    { token: org.token, body: { kind: 'subsea_cable' } },
  );
  expect(tagged.status, tagged.text).toBe(200);
  const lines = await call('GET', '/api/v1/infrastructure/lines', { token: org.token });
  const fibre = await post('/api/v1/sensors', {
    environment_id: env.environment_id,
    name: 'DAS interrogator',
    type: 'fibre_optic',
    location: { lat: 51.1, lon: 1.4 },
    fibre: { line_id: lines.body.items[0].line_id, start_distance_m: 1000, channel_spacing_m: 10, threshold: 5 },
  });
  await post(`/api/v1/sensors/${fibre.sensor_id}/telemetry`, {
    kind: 'das',
    frames: [0, 1, 2].map((i) => ({
      time: new Date(now - 120_000 + i * 1000).toISOString(),
      channel_start: 0,
      values: [1, 1.2, 0.9, 1.1],
    })),
  });
  const workflow = await post('/api/v1/workflows', {
    name: 'Gate playbook',
    trigger: { type: 'manual' },
    actions: [{ type: 'escalate' }],
  });
  const integration = await post('/api/v1/integrations', {
    name: 'Dock 1',
    kind: 'drone',
    config: { url: 'http://127.0.0.1:9/dock' },
  });
  const { key, keyId } = await apiKey(org, 'TENANT_ADMIN');
  // The tracker reads AIS from the bus, moments after the events are stored.
  await until(
    async () => (await call('GET', `/api/v1/vessels/${mmsi}`, { token: org.token })).status,
    (s) => s === 200,
    `vessel ${mmsi} tracked`,
    PIPELINE_WAIT_MS,
  );
  return {
    org,
    key,
    keyId,
    incidentId: incident.incident_id,
    eventId: event.event_id,
    mmsi: String(mmsi),
    sensorId: sensor.sensor_id,
    fibreSensorId: fibre.sensor_id,
    workflowId: workflow.workflow_id,
    integrationId: integration.integration_id,
    word,
    at,
  };
}

function stdio(key: string): Transport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'gatehouse-mcp.mjs')],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', GATEHOUSE_API_KEY: key, GATEHOUSE_BASE_URL: baseUrl() },
    stderr: 'ignore',
  });
}

function http(key: string): Transport {
  return new StreamableHTTPClientTransport(new URL('/mcp', baseUrl()), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
}

const TRANSPORTS = { stdio, http } as const;
const clients: Client[] = [];

async function connect(transport: keyof typeof TRANSPORTS, key: string): Promise<Client> {
  const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
  await client.connect(TRANSPORTS[transport](key));
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: Array<{ type: string; text?: string }>;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

const textContent = (c: unknown) => String((c as { text?: unknown } | undefined)?.text);
const textOf = (r: ToolAnswer) => r.content.map((c) => c.text ?? '').join('\n');

beforeAll(async () => {
  [a, b] = await Promise.all([
    world('McpA', { lat: 51.12, lon: 1.33 }, 235000101),
    world('McpB', { lat: 51.12, lon: 1.33 }, 235000202),
  ]);
  viewerKey = (await apiKey(a.org, 'VIEWER')).key;
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

/** Arguments for each tool of the catalogue, for tenant A's world. */
function argsFor(w: World, transport: string): Record<string, Record<string, unknown>> {
  return {
    query_threats: { limit: 5 },
    get_incidents: { limit: 5 },
    create_incident: { title: `Opened by an assistant over ${transport}`, severity: 'low', location: w.at },
    search_vessels: { lat: w.at.lat, lon: w.at.lon, radius_km: 5, hours: 2 },
    get_cable_risk: { lat: 51.15, lon: 1.6 },
    get_threat_score: { target: w.mmsi, target_type: 'mmsi' },
    get_correlation: { incident_id: w.incidentId, radius_km: 5, window_minutes: 60 },
    dispatch_drone: { incident_id: w.incidentId, integration_id: w.integrationId, task: 'inspect' },
    query_data_lake: { sql: 'SELECT 1 AS one' },
    get_connectors: { limit: 2 },
    provision_free_account: { email: `mcp-${transport}-${Math.random().toString(36).slice(2, 8)}@signup.example` },
    get_space_weather: {},
    get_vessel_profile: { mmsi: w.mmsi, hours: 2 },
    list_cable_systems: {},
    get_ais_track: { mmsi: w.mmsi, limit: 10 },
    get_dark_vessels: { hours: 2 },
    query_threat_feed: { ip: '192.0.2.1' },
    search_events: { q: w.word },
    get_sensor_data: {
      sensor_id: w.fibreSensorId,
      from: new Date(Date.now() - 600_000).toISOString(),
      to: new Date().toISOString(),
    },
    add_watchlist: { entity_type: 'domain', value: `${transport}.watched.example`, label: `watched over ${transport}` },
    get_watchlist_alerts: { limit: 5 },
    run_playbook: { workflow_id: w.workflowId, incident_id: w.incidentId },
    get_api_usage: {},
    get_environmental_risk: { days: 7 },
    get_internet_health: { hours: 24 },
    get_bgp_alerts: { limit: 5 },
    get_geopolitical_risk: {},
  };
}

describe('mcp.post', () => {
  it("lists the catalogue: the spec's 27 names, once each, and no other", async () => {
    const client = await connect('http', a.key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(
      names.filter((n) => !(SPEC_TOOL_NAMES as readonly string[]).includes(n)),
      'tools outside the spec',
    ).toEqual([]);
    const missing = SPEC_TOOL_NAMES.filter((n) => !names.includes(n));
    expect(missing, `spec tools missing from the catalogue: ${missing.join(', ')}`).toEqual([]);
    expect(names).toHaveLength(27);
  });

  it('refuses a foreign Origin, a foreign Host and a request without a credential', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const headers = {
      authorization: `Bearer ${a.key}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    const own = await fetch(new URL('/mcp', baseUrl()), { method: 'POST', headers, body: JSON.stringify(init) });
    expect(own.status).toBe(200);
    expect(((await own.json()) as any).result.serverInfo.name).toBe('gatehouse');
    const foreignOrigin = await fetch(new URL('/mcp', baseUrl()), {
      method: 'POST',
      headers: { ...headers, origin: 'http://evil.example' },
      body: JSON.stringify(init),
    });
    expect(foreignOrigin.status).toBe(403);
    expect(await foreignOrigin.text()).toContain('Invalid Origin');
    const url = new URL('/mcp', baseUrl());
    const foreignHost = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: { ...headers, host: `rebound.example:${url.port}` },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', fail);
      req.end(JSON.stringify(init));
    });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).toContain('Invalid Host');
    const anonymous = await fetch(new URL('/mcp', baseUrl()), {
      method: 'POST',
      headers: { accept: headers.accept, 'content-type': 'application/json' },
      body: JSON.stringify(init),
    });
    expect(anonymous.status).toBe(401);
    // Stateless: no server stream to open, no session to end.
    expect(
      (await fetch(new URL('/mcp', baseUrl()), { method: 'GET', headers: { authorization: headers.authorization } }))
        .status,
    ).toBe(405);
  });

  for (const transport of Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[]) {
    describe(`over ${transport}`, () => {
      it('lists every tool with its title, input and output schemas and all four annotations', async () => {
        const client = await connect(transport, a.key);
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(TOOLS.length);
        for (const tool of tools) {
          expect(tool.title, tool.name).toBeTruthy();
          expect(tool.description!.length, tool.name).toBeGreaterThan(40);
          expect(tool.inputSchema.type, tool.name).toBe('object');
          expect(tool.inputSchema.properties ?? {}, tool.name).not.toHaveProperty('tenant_id');
          expect(tool.outputSchema?.type, tool.name).toBe('object');
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
            expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe('boolean');
          }
        }
        const acting = tools
          .filter((t) => !t.annotations?.readOnlyHint)
          .map((t) => t.name)
          .sort();
        expect(acting).toEqual([
          'add_watchlist',
          'create_incident',
          'dispatch_drone',
          'provision_free_account',
          'run_playbook',
        ]);
      });

      it("calls every tool with seeded data, each answer valid against the tool's outputSchema", async () => {
        const client = await connect(transport, a.key);
        const { tools } = await client.listTools();
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats(ajv);
        const args = argsFor(a, transport);
        expect(Object.keys(args).sort(), 'arguments for every tool of the catalogue').toEqual(
          tools.map((t) => t.name).sort(),
        );
        const results: Record<string, ToolAnswer> = {};
        for (const tool of tools) {
          const result = await callTool(client, tool.name, args[tool.name]!);
          expect(result.isError, `${tool.name}: ${textOf(result)}`).toBeFalsy();
          const validate = ajv.compile(tool.outputSchema!);
          expect(validate(result.structuredContent), `${tool.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          expect(textOf(result).length, tool.name).toBeGreaterThan(0);
          results[tool.name] = result;
        }
        // What a user would notice in the answers: their own data.
        expect(results.get_incidents!.structuredContent!.items.map((i: any) => i.incident_id)).toContain(a.incidentId);
        expect(results.search_events!.structuredContent!.items.map((e: any) => e.event_id)).toEqual([a.eventId]);
        expect(results.search_vessels!.structuredContent!.items.map((v: any) => v.mmsi)).toContain(a.mmsi);
        expect(results.get_vessel_profile!.structuredContent!.mmsi).toBe(a.mmsi);
        expect(results.get_ais_track!.structuredContent!.positions.length).toBe(3);
        expect(results.list_cable_systems!.structuredContent!.items.every((l: any) => l.kind === 'subsea_cable')).toBe(
          true,
        );
        expect(results.list_cable_systems!.structuredContent!.items.length).toBeGreaterThan(0);
        expect(results.create_incident!.structuredContent!.title).toBe(`Opened by an assistant over ${transport}`);
        expect(results.query_data_lake!.structuredContent!.rows).toEqual([[1]]);
        expect(results.get_sensor_data!.structuredContent!.frames.length).toBe(3);
        const correlation = results.get_correlation!.structuredContent!;
        const domains = Object.fromEntries(
          correlation.groups.map((g: any) => [g.domain, g.matches.map((m: any) => m.id)]),
        );
        expect(domains.ais).toContain(a.mmsi);
        expect(Object.values(domains).flat()).toContain(a.eventId);
        expect(results.provision_free_account!.structuredContent!.tier).toBe('free');
        expect(results.get_api_usage!.structuredContent!.tenant_id).toBe(a.org.tenantId);
      }, 120_000);

      it('pages a list with an opaque cursor to its end', async () => {
        const client = await connect(transport, a.key);
        const seen: string[] = [];
        let cursor: string | null | undefined;
        for (let i = 0; i < 20; i++) {
          const page = await callTool(client, 'list_cable_systems', { limit: 1, ...(cursor ? { cursor } : {}) });
          expect(page.structuredContent!.items.length).toBeLessThanOrEqual(1);
          seen.push(...page.structuredContent!.items.map((l: any) => l.line_id));
          cursor = page.structuredContent!.next_cursor;
          if (!cursor) break;
        }
        expect(cursor).toBeNull();
        const all = await call('GET', '/api/v1/infrastructure/lines', {
          apiKey: a.key,
          query: { kind: 'subsea_cable' },
        });
        expect(seen).toEqual(all.body.items.map((l: any) => l.line_id));
        expect(seen.length).toBe(3);
        const incidents = await callTool(client, 'get_incidents', { limit: 1 });
        expect(incidents.structuredContent!.items).toHaveLength(1);
        const next = await callTool(client, 'get_incidents', {
          limit: 1,
          cursor: incidents.structuredContent!.next_cursor,
        });
        expect(next.structuredContent!.items[0].incident_id).not.toBe(
          incidents.structuredContent!.items[0].incident_id,
        );
        const wrong = await callTool(client, 'get_incidents', { cursor: 'not-a-cursor' });
        expect(wrong.isError).toBe(true);
        expect(textOf(wrong)).toContain('cursor');
        const foreign = await callTool(client, 'search_events', { cursor: incidents.structuredContent!.next_cursor });
        expect(foreign.isError, 'a cursor of another tool').toBe(true);
      });

      it('answers bad input with a tool error naming the field', async () => {
        const client = await connect(transport, a.key);
        const noTitle = await callTool(client, 'create_incident', { severity: 'low' });
        expect(noTitle.isError).toBe(true);
        expect(textOf(noTitle)).toMatch(/title/);
        for (const limit of [0, 101, 2.5]) {
          const badLimit = await callTool(client, 'search_vessels', { limit });
          expect(badLimit.isError).toBe(true);
          expect(textOf(badLimit)).toBe('Invalid input: limit: must be an integer from 1 to 100');
        }
        const badRadius = await callTool(client, 'search_vessels', { lat: 51, lon: 1, radius_km: -1 });
        expect(badRadius.isError).toBe(true);
        expect(textOf(badRadius)).toMatch(/^Invalid input: radius_km: /);
        const badMmsi = await callTool(client, 'get_vessel_profile', { mmsi: 'not-an-mmsi' });
        expect(badMmsi.isError).toBe(true);
        expect(textOf(badMmsi)).toMatch(/mmsi/);
        // The key decides the tenant: even a route that takes tenant_id does not get it from a tool.
        for (const name of ['get_incidents', 'query_threats']) {
          const stranger = await callTool(client, name, { tenant_id: b.org.tenantId });
          expect(stranger.isError, name).toBe(true);
          expect(textOf(stranger), name).toContain('tenant_id: not a field of this tool');
        }
      });

      it('runs a playbook by its name, and says which playbooks there are for a name that is none', async () => {
        const client = await connect(transport, a.key);
        const run = await callTool(client, 'run_playbook', { name: 'gate PLAYBOOK', incident_id: a.incidentId });
        expect(run.isError, textOf(run)).toBeFalsy();
        expect(run.structuredContent!.workflow_id).toBe(a.workflowId);
        const unknown = await callTool(client, 'run_playbook', { name: 'Lockdown' });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toBe('name: no playbook named "Lockdown"; yours: "Gate playbook"');
        const both = await callTool(client, 'run_playbook', { name: 'Gate playbook', workflow_id: a.workflowId });
        expect(both.isError).toBe(true);
        expect(textOf(both)).toContain('not both');
        const neither = await callTool(client, 'run_playbook', {});
        expect(neither.isError).toBe(true);
        expect(textOf(neither)).toContain('workflow_id');
      });

      it('refuses a VIEWER key create_incident, dispatch_drone and run_playbook, as tool errors saying why', async () => {
        const client = await connect(transport, viewerKey);
        const args = argsFor(a, transport);
        for (const name of ['create_incident', 'dispatch_drone', 'run_playbook']) {
          const result = await callTool(client, name, args[name]!);
          expect(result.isError, name).toBe(true);
          expect(textOf(result), name).toContain('OPERATOR');
        }
        expect((await callTool(client, 'get_incidents', {})).isError).toBeFalsy();
      });

      it("never shows tenant A's incident, vessel or event to tenant B's key", async () => {
        const client = await connect(transport, b.key);
        const incidents = await callTool(client, 'get_incidents', { limit: 100 });
        const ids = incidents.structuredContent!.items.map((i: any) => i.incident_id);
        expect(ids).toContain(b.incidentId);
        expect(ids).not.toContain(a.incidentId);
        expect((await callTool(client, 'search_events', { q: a.word })).structuredContent!.items).toEqual([]);
        expect(
          (await callTool(client, 'search_events', { q: b.word })).structuredContent!.items.map((e: any) => e.event_id),
        ).toEqual([b.eventId]);
        // Every word, any case, in the description, type, source or payload values.
        const words = await callTool(client, 'search_events', { q: `GATE ${b.word.toUpperCase()} intrusion.detected` });
        expect(words.structuredContent!.items.map((e: any) => e.event_id)).toEqual([b.eventId]);
        expect((await callTool(client, 'search_events', { q: `${b.word} lockdown` })).structuredContent!.items).toEqual(
          [],
        );
        const vessels = await callTool(client, 'search_vessels', {
          lat: a.at.lat,
          lon: a.at.lon,
          radius_km: 5,
          hours: 2,
        });
        expect(vessels.structuredContent!.items.map((v: any) => v.mmsi)).toEqual([b.mmsi]);
        const profile = await callTool(client, 'get_vessel_profile', { mmsi: a.mmsi });
        expect(profile.isError).toBe(true);
        expect(textOf(profile)).toContain('Not found');
        const correlation = await callTool(client, 'get_correlation', { incident_id: a.incidentId });
        expect(correlation.isError).toBe(true);
        const around = await callTool(client, 'get_correlation', {
          lat: a.at.lat,
          lon: a.at.lon,
          radius_km: 5,
          window_minutes: 60,
        });
        const matched = around.structuredContent!.groups.flatMap((g: any) => g.matches.map((m: any) => m.id));
        expect(matched).toContain(b.mmsi);
        expect(matched).not.toContain(a.mmsi);
        expect(matched).not.toContain(a.eventId);
        await expect(client.readResource({ uri: `gatehouse://incidents/${a.incidentId}` })).rejects.toThrow(
          /not found/i,
        );
      });

      it("answers tenant B's key with nothing of tenant A through any tool, even when asked with A's identifiers", async () => {
        const client = await connect(transport, b.key);
        // What would betray tenant A: its tenant, its records' ids, its vessel's name, its marker word.
        const marks = [
          a.org.tenantId,
          a.incidentId,
          a.eventId,
          a.mmsi,
          a.sensorId,
          a.fibreSensorId,
          a.workflowId,
          a.integrationId,
          a.word,
          'MCPA STAR',
        ];
        const label = `${transport}-by-b`;
        const passes = { "with B's own arguments": argsFor(b, label), "with A's identifiers": argsFor(a, label) };
        let calls = 0;
        for (const [pass, args] of Object.entries(passes)) {
          for (const [name, input] of Object.entries(args)) {
            // The self-serve signup runs without a credential: it has no tenant to leak from.
            if (name === 'provision_free_account') continue;
            const asked = JSON.stringify(input);
            const answer = await callTool(client, name, input);
            // With its own arguments B is answered (a test that every tool refused would prove nothing).
            if (args !== passes["with A's identifiers"])
              expect(answer.isError, `${name} ${pass}: ${textOf(answer).slice(0, 300)}`).toBeFalsy();
            const said = JSON.stringify(answer);
            // A mark the question itself carried may be echoed in an error; any other is a leak.
            const leaked = marks.filter((m) => !asked.includes(m) && said.includes(m));
            expect(leaked, `${name} ${pass}: ${textOf(answer).slice(0, 300)}`).toEqual([]);
            calls++;
          }
        }
        expect(calls).toBe(2 * (TOOLS.length - 1));
        // Asked for A's records by id, B's key gets none of them.
        const a_ = argsFor(a, label);
        for (const name of [
          'get_correlation',
          'dispatch_drone',
          'run_playbook',
          'get_sensor_data',
          'get_vessel_profile',
        ]) {
          const answer = await callTool(client, name, a_[name]!);
          expect(answer.isError, `${name}: ${textOf(answer).slice(0, 300)}`).toBe(true);
          expect(textOf(answer), name).toMatch(/^Not found/);
        }
        const track = await callTool(client, 'get_ais_track', a_.get_ais_track!);
        expect(track.isError || track.structuredContent!.positions.length === 0, textOf(track).slice(0, 300)).toBe(
          true,
        );
      }, 120_000);

      it('reads incidents and vessels as resources, and offers the triage prompt', async () => {
        const client = await connect(transport, a.key);
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
          'gatehouse://incidents/{incident_id}',
          'gatehouse://vessels/{mmsi}',
        ]);
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri)).toContain(`gatehouse://incidents/${a.incidentId}`);
        const incident = await client.readResource({ uri: `gatehouse://incidents/${a.incidentId}` });
        expect(JSON.parse(textContent(incident.contents[0])).incident_id).toBe(a.incidentId);
        const vessel = await client.readResource({ uri: `gatehouse://vessels/${a.mmsi}` });
        expect(JSON.parse(textContent(vessel.contents[0])).mmsi).toBe(a.mmsi);
        const { prompts } = await client.listPrompts();
        expect(prompts.map((p) => p.name)).toEqual(['triage_incident']);
        const prompt = await client.getPrompt({ name: 'triage_incident', arguments: { incident_id: a.incidentId } });
        expect(JSON.stringify(prompt.messages)).toContain(`gatehouse://incidents/${a.incidentId}`);
      });
    });
  }

  it("counts tool calls against the key's own limits: a free key's 11th get_api_usage of a minute is a tool error saying when to retry", async () => {
    const free = await registerTenant('McpFree', { plan: 'free' });
    const { key } = await apiKey(free, 'VIEWER');
    const client = await connect('http', key);
    // The limit counts calendar minutes: start early in one, so the eleven calls share it.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const answers: ToolAnswer[] = [];
    for (let i = 0; i < 11; i++) answers.push(await callTool(client, 'get_api_usage', {}));
    expect(answers.slice(0, 10).map((r) => r.isError ?? false)).toEqual(Array(10).fill(false));
    expect(answers[0]!.structuredContent!).toMatchObject({
      tier: 'free',
      rate_limit: { per_minute: 10, remaining: 9 },
    });
    expect(answers[10]!.isError).toBe(true);
    expect(textOf(answers[10]!)).toMatch(/^Rate limited: .*\(retry after \d+ s\)$/);
  }, 60_000);

  it('says so, as a tool error, when the API does not answer', async () => {
    const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'bin', 'gatehouse-mcp.mjs')],
        cwd: ROOT,
        // Port 9 (discard) on loopback: nothing listens there.
        env: { PATH: process.env.PATH ?? '', GATEHOUSE_API_KEY: a.key, GATEHOUSE_BASE_URL: 'http://127.0.0.1:9' },
        stderr: 'ignore',
      }),
    );
    clients.push(client);
    const result = await callTool(client, 'get_incidents', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Could not reach the Gatehouse API at http:\/\/127\.0\.0\.1:9 \(.+\); retry later\.$/,
    );
  });

  it('answers an unknown tool with a protocol error, not a tool result', async () => {
    const client = await connect('stdio', a.key);
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(/Unknown tool: drop_tables/);
  });

  it('audits a tool call with the key and the tool', async () => {
    const client = await connect('stdio', a.key);
    const created = await callTool(client, 'create_incident', { title: 'Audited tool call' });
    const incidentId = created.structuredContent!.incident_id;
    const entry = (await auditEntriesOf(a.org.tenantId)).find(
      (e) => e.resource_id === incidentId && e.action === 'incident.created',
    );
    expect(entry).toMatchObject({ actor_type: 'api_key', api_key_id: a.keyId, tool: 'create_incident' });
    // As the audit API answers it, and without a tool for a request made otherwise.
    const listed = await call('GET', `/api/v1/audit-logs/${a.org.tenantId}`, {
      token: a.org.token,
      query: { action: 'incident.created', limit: 200 },
    });
    const byTool = listed.body.items.find((e: any) => e.resource_id === incidentId);
    expect(byTool.tool).toBe('create_incident');
    const direct = listed.body.items.find((e: any) => e.resource_id === a.incidentId);
    expect(direct).not.toHaveProperty('tool');
  });
});

describe('correlation.get', () => {
  it('groups what happened near an incident by domain, scored, and refuses no anchor or two', async () => {
    const res = await call('GET', '/api/v1/correlation', {
      token: a.org.token,
      query: { incident_id: a.incidentId, radius_km: 5, window_minutes: 60 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.anchor).toMatchObject({ kind: 'incident', id: a.incidentId, lat: a.at.lat, lon: a.at.lon });
    const byDomain = Object.fromEntries(res.body.groups.map((g: any) => [g.domain, g]));
    const vessel = byDomain.ais.matches.find((m: any) => m.id === a.mmsi);
    expect(vessel).toMatchObject({ kind: 'vessel', positions: 3 });
    expect(vessel.distance_km).toBeLessThan(1);
    const event = Object.values(byDomain)
      .flatMap((g: any) => g.matches)
      .find((m: any) => m.id === a.eventId);
    expect(event.distance_km).toBeCloseTo(0.111, 2);
    expect(event.score).toBeGreaterThan(0.9);
    expect(event.why).toContain('km away');
    expect((await call('GET', '/api/v1/correlation', { token: a.org.token })).status).toBe(422);
    expect(
      (
        await call('GET', '/api/v1/correlation', {
          token: a.org.token,
          query: { incident_id: a.incidentId, event_id: a.eventId },
        })
      ).status,
    ).toBe(422);
    expect(
      (await call('GET', '/api/v1/correlation', { token: b.org.token, query: { event_id: a.eventId } })).status,
    ).toBe(404);
    const far = await call('GET', '/api/v1/correlation', {
      token: a.org.token,
      query: { lat: 0, lon: 0, radius_km: 1 },
    });
    expect(far.body.groups).toEqual([]);
  });
});
