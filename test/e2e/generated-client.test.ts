/**
 * A typed client generated from /openapi.json by a well-kept generator, as an integrator would:
 * openapi-typescript turns the document into `paths` types, openapi-fetch calls the API with
 * them. The client program below is type-checked with the TypeScript compiler (no errors: the
 * types are usable, and they refuse a setting of another kind in a drone integration's config),
 * then run against the test server: ten routes, each answer asserted.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, baseUrl, call, registerTenant, type RegisteredTenant } from '../support/api.js';

/** Inside the project, so that the program resolves `openapi-fetch` from its node_modules. */
const dir = join(process.cwd(), '.build', 'generated-client', `${process.pid}-${Date.now().toString(36)}`);

/**
 * The client program: every body is typed by the generated `paths`, the drone integration's from
 * the drone branch of the body's union alone, with only the fields that branch requires.
 */
const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

type IntegrationBody = paths['/api/v1/integrations']['post']['requestBody']['content']['application/json'];
/** The drone branch of the union, picked by its tag. */
export type DroneIntegration = Extract<IntegrationBody, { kind: 'drone' }>;

export const droneIntegration = (url: string): DroneIntegration => ({ name: 'Dock 1', kind: 'drone', config: { url } });

// The schema says which settings go with which kind: a Slack setting on a drone does not compile.
// @ts-expect-error a drone integration takes no webhook_url
export const wrongKind: DroneIntegration = { name: 'Dock 2', kind: 'drone', config: { url: 'https://dock.example', webhook_url: 'https://hooks.example/x' } };

/** A page's items, whether a list answers an array or a page object. */
const itemsOf = (page: unknown): { [key: string]: unknown }[] =>
  (Array.isArray(page) ? page : (page as { items: { [key: string]: unknown }[] }).items);

export async function run(baseUrl: string, token: string, dockUrl: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + token } });
  const at = { lat: 59.9, lon: 10.7 };
  const results: Record<string, { status: number; data?: unknown }> = {};
  const keep = (name: string, r: { response: Response; data?: unknown }) => {
    results[name] = { status: r.response.status, data: r.data };
    return r.data;
  };

  const environment = keep('environments.create', await api.POST('/api/v1/environments', {
    body: { name: 'North port', type: 'port', location: at },
  }));
  const environmentId = (environment as { environment_id: string }).environment_id;
  keep('environments.get', await api.GET('/api/v1/environments/{environment_id}', {
    params: { path: { environment_id: environmentId } },
  }));
  keep('zones.create', await api.POST('/api/v1/zones', {
    body: {
      environment_id: environmentId,
      name: 'Quay',
      geofence: { type: 'Circle', center: [at.lon, at.lat], radius_m: 500 },
    },
  }));
  const integration = keep('integrations.create', await api.POST('/api/v1/integrations', {
    body: droneIntegration(dockUrl),
  }));
  const integrationId = (integration as { integration_id: string }).integration_id;
  keep('integrations.get', await api.GET('/api/v1/integrations/{integration_id}', {
    params: { path: { integration_id: integrationId } },
  }));
  const event = keep('events.create', await api.POST('/api/v1/events', {
    body: { type: 'perimeter.breach', environment_id: environmentId, location: at, source: 'sensor' },
  }));
  const eventId = (event as { event_id: string }).event_id;
  keep('incidents.create', await api.POST('/api/v1/incidents', {
    body: { title: 'Fence breach at the quay', severity: 'high', environment_id: environmentId, location: at },
  }));
  const events = await api.GET('/api/v1/events', {});
  results['events.list'] = { status: events.response.status, data: itemsOf(events.data) };
  const incidents = await api.GET('/api/v1/incidents', {});
  results['incidents.list'] = { status: incidents.response.status, data: itemsOf(incidents.data) };
  keep('correlation.get', await api.GET('/api/v1/correlation', {
    params: { query: { lat: at.lat, lon: at.lon, radius_km: 2 } },
  }));
  const refused = await api.POST('/api/v1/integrations', {
    body: { ...droneIntegration(dockUrl), config: { feed: 'swpc-kp' } } as unknown as IntegrationBody,
  });
  results['integrations.create (wrong kind)'] = { status: refused.response.status, data: refused.error };
  return { results, eventId, environmentId, integrationId };
}
`;

let org: RegisteredTenant;
let schemaSource: string;

beforeAll(async () => {
  org = await registerTenant('Typed');
  // Integrations are a paid feature on some plans: this tenant has every feature.
  const upgraded = await call('PATCH', `/api/v1/tenants/${org.tenantId}`, {
    token: await asAdmin(),
    body: { plan: 'enterprise' },
  });
  expect(upgraded.status).toBe(200);
  const doc = (await call('GET', '/openapi.json')).body as Record<string, unknown>;
  schemaSource = astToString(await openapiTS(doc as never));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.d.ts'), schemaSource);
  writeFileSync(join(dir, 'client.ts'), PROGRAM);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a client generated from /openapi.json', () => {
  it('types the integration body per kind: the drone branch has only its own settings', () => {
    // openapi-typescript writes the oneOf as a union with `kind` as each branch's literal tag.
    expect(schemaSource).toMatch(/kind: "drone";/);
    expect(schemaSource).not.toMatch(/webhook_url\?: string;[^}]*routing_key\?: string;[^}]*url\?: string/);
  });

  it('compiles with no errors under strict TypeScript', () => {
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('calls ten routes with it, the drone integration built from its schema branch alone accepted', async () => {
    const client = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as {
      run(
        baseUrl: string,
        token: string,
        dockUrl: string,
      ): Promise<{
        results: Record<string, { status: number; data: any }>;
        eventId: string;
        environmentId: string;
        integrationId: string;
      }>;
    };
    const { results, eventId, environmentId, integrationId } = await client.run(
      baseUrl(),
      org.token,
      'http://127.0.0.1:9/dock',
    );
    const statuses = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.status]));
    expect(statuses).toEqual({
      'environments.create': 201,
      'environments.get': 200,
      'zones.create': 201,
      'integrations.create': 201,
      'integrations.get': 200,
      'events.create': 201,
      'incidents.create': 201,
      'events.list': 200,
      'incidents.list': 200,
      'correlation.get': 200,
      'integrations.create (wrong kind)': 422,
    });
    expect(results['integrations.create']!.data).toMatchObject({
      kind: 'drone',
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(results['integrations.get']!.data).toMatchObject({ integration_id: integrationId, kind: 'drone' });
    expect(results['environments.get']!.data).toMatchObject({ environment_id: environmentId, name: 'North port' });
    expect(results['events.list']!.data.map((e: { event_id: string }) => e.event_id)).toContain(eventId);
    expect(results['incidents.list']!.data.map((i: { title: string }) => i.title)).toContain(
      'Fence breach at the quay',
    );
    const groups = results['correlation.get']!.data.groups as { matches: { id: string }[] }[];
    expect(groups.flatMap((g) => g.matches.map((m) => m.id))).toContain(eventId);
    // A setting of another kind is refused at the field, naming the kind the body chose.
    expect(results['integrations.create (wrong kind)']!.data.detail).toEqual([
      { loc: ['body', 'config', 'url'], msg: 'field required for `kind` `drone`', type: 'missing' },
      { loc: ['body', 'config', 'feed'], msg: 'unknown field for `kind` `drone`', type: 'extra_forbidden' },
    ]);
  });
});
