/**
 * One convention on every list (issue 36, docs/architecture.md "Lists"): each list the OpenAPI
 * document publishes answers a tenant's own TENANT_ADMIN without `tenant_id`, in one of two shapes
 * (the spec's bare arrays, or the page object `{items, total?, limit, offset, next_offset}`), paged
 * by `offset`/`limit`, with a `Link: <...>; rel="next"` to the next page that a client can follow.
 * The lists are found in the document the server serves, so a list added later is walked too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, call, createUser, login, registerTenant, type RegisteredTenant } from '../support/api.js';
import { newEnvironment, newSensor, newZone } from '../support/sites.js';
import { CABLE_KML, positionReport } from '../support/ais.js';
import { PORT_KML, uploadMapFile } from '../support/geo-files.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { until } from '../support/threat-site.js';

type Json = any;

/** GET operations with `limit` that answer one thing, not a list (a report bounded by `limit`). */
const NOT_LISTS: Record<string, string> = {
  '/api/v1/vessels/dark': 'a report of three lists (dark now, gaps, loitering), each bounded by limit',
  '/api/v1/vessels/{mmsi}/track': "one vessel's track, bounded by limit and by dates",
  '/api/v1/threat-feed/vulnerabilities': 'a lookup: the matches of one query, bounded by limit',
  '/api/v1/threat-feed/indicators': 'a lookup: the matches of one query, bounded by limit',
  '/api/v1/environmental-risk': 'a report per environment, its hazards bounded by limit',
};

/** Lists of fixed catalogs the spec returns whole, not pages of a tenant's items. */
const CATALOGS: Record<string, string> = {
  '/api/v1/portal/plans': 'the public list of plans',
  '/api/v1/webhooks/events': 'the public list of subscribable event types (spec: an array of strings)',
};

/** Lists this test cannot fill with two items, and why. Every other list must hold two. */
const UNSEEDED: Record<string, string> = {
  '/api/v1/threats': 'threats come from threat library definitions matched by events over a window',
  '/api/v1/watchlist/alerts': 'alerts come from a watched entity seen by a connector or the vessel tracker',
  '/api/v1/internet-health/bgp-alerts': 'alerts come from a RIS Live connector stream',
  '/api/v1/incidents/{incident_id}/drone-dispatches': 'a dispatch needs a drone dock that takes signed commands',
};

let org: RegisteredTenant;
let admin: string;
let receiver: Receiver;
let doc: Json;
const params: Record<string, string> = {};

async function created(path: string, body: Record<string, unknown>, token = org.token): Promise<Json> {
  const res = await call('POST', path, { token, body });
  expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

beforeAll(async () => {
  receiver = await startReceiver();
  admin = await asAdmin();
  org = await registerTenant('Lists');
  // Every feature and a high rate: the plan is not what this test is about.
  expect(
    (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { plan: 'enterprise' } })).status,
  ).toBe(200);
  org = { ...org, token: await login(org.email, org.password) };
  params.tenant_id = org.tenantId;

  await createUser(org.token, 'VIEWER');
  for (const name of ['soc feed', 'backup feed']) await created('/api/v1/portal/api-keys', { name, role: 'VIEWER' });
  const env = await newEnvironment(org, { name: 'Dover Strait' });
  await newEnvironment(org, { name: 'Second site', type: 'building' });
  params.environment_id = env.environment_id;
  await newZone(org, env.environment_id, { name: 'Quay' });
  await newZone(org, env.environment_id, { name: 'Basin' });
  const ais = await newSensor(org, env.environment_id, {
    name: 'AIS receiver',
    type: 'ais_receiver',
    location: { lat: 51.14, lon: 1.37 },
  });
  await newSensor(org, env.environment_id, { name: 'Gate camera' });
  for (const name of ['Pump house', 'Crane'])
    await created('/api/v1/assets', {
      environment_id: env.environment_id,
      name,
      type: 'building',
      location: { lat: 51.13, lon: 1.31 },
    });
  for (const [file, text] of [
    ['cables.kml', CABLE_KML],
    ['port.kml', PORT_KML],
  ] as const)
    expect((await uploadMapFile(org.token, env.environment_id, file, Buffer.from(text, 'utf8'))).status).toBeLessThan(
      300,
    );

  const hook = await created('/api/v1/webhooks', { url: `${receiver.url}/hook`, event_types: ['incident.created'] });
  await created('/api/v1/webhooks', { url: `${receiver.url}/other`, event_types: ['incident.resolved'] });
  params.webhook_id = hook.webhook_id;
  for (const name of ['SOC channel', 'Night desk'])
    await created('/api/v1/integrations', { name, kind: 'teams', config: { webhook_url: `${receiver.url}/teams` } });
  for (const feed of ['swpc-kp', 'usgs-quakes'])
    await created('/api/v1/integrations', {
      name: feed,
      kind: 'feed',
      config: { feed, url: `${receiver.url}/${feed}` },
    });
  for (const title of ['Fence cut at the north gate', 'Gate forced']) {
    params.incident_id = (await created('/api/v1/incidents', { title, severity: 'high' })).incident_id;
  }
  const now = new Date();
  for (const [mmsi, lat] of [
    [235000001, 51.1],
    [235000002, 51.2],
  ] as const) {
    await created('/api/v1/events', {
      type: 'ais.position',
      sensor_id: ais.sensor_id,
      occurred_at: now.toISOString(),
      payload: { nmea: positionReport(mmsi, now, { lat, lon: 1.5, sog: 10, cog: 90 }).nmea[0] },
    });
  }
  for (const value of ['203.0.113.7', '203.0.113.8'])
    await created('/api/v1/watchlist/entries', { entity_type: 'ip', value });
  await created('/api/v1/threat-libraries/seed', {});
  const playbook = await created('/api/v1/workflows', {
    name: 'Playbook',
    trigger: { type: 'manual' },
    actions: [{ type: 'create_incident', title: 'Drill' }],
  });
  await created('/api/v1/workflows', {
    name: 'Hourly',
    trigger: { type: 'schedule', every_minutes: 60 },
    actions: [{ type: 'create_incident', title: 'Hourly check' }],
  });
  params.workflow_id = playbook.workflow_id;
  for (let i = 0; i < 2; i++) await created(`/api/v1/workflows/${playbook.workflow_id}/run`, {});

  // What the workers do a moment after the writes: deliveries, vessels.
  await until(
    async () => (await call('GET', `/api/v1/webhooks/${hook.webhook_id}/deliveries`, { token: org.token })).body,
    (b: Json) => b.items?.length >= 2,
    'two deliveries',
  );
  await until(
    async () => (await call('GET', '/api/v1/vessels', { token: org.token })).body,
    (b: Json) => (Array.isArray(b) ? b : b.items)?.length >= 2,
    'two vessels',
  );
  doc = (await call('GET', '/openapi.json')).body;
}, 180_000);

/**
 * Fields an answer computes from the clock as it is made: a vessel's `silent_minutes`, to a tenth
 * of a minute, so two reads of one vessel a moment apart may differ in it. Items are compared
 * without them.
 */
const CLOCK_FIELDS = new Set(['silent_minutes']);
const withoutClock = (key: string, value: unknown) => (CLOCK_FIELDS.has(key) ? undefined : value);
const sameItem = (a: unknown, b: unknown) => JSON.stringify(a, withoutClock) === JSON.stringify(b, withoutClock);

/** The operation's 200 schema, its `$ref` resolved. */
function successSchema(op: Json): Json {
  const schema = op.responses?.['200']?.content?.['application/json']?.schema;
  const ref = schema?.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.split('/').pop()!] : schema;
}

/** Every GET that takes `limit` or answers a list, by path. */
function listOperations(): [string, Json][] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => {
    const op = item.get;
    if (!op) return [];
    const names = new Set((op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name));
    const schema = successSchema(op);
    const listy = schema?.type === 'array' || schema?.properties?.items !== undefined;
    return names.has('limit') || listy ? [[path, op] as [string, Json]] : [];
  });
}

const itemsOf = (body: Json): Json[] => (Array.isArray(body) ? body : body.items);

/** The next page's URL from a `Link` header, if it has one with rel="next". */
function nextLink(link: string | null): string | undefined {
  return link?.match(/<([^>]+)>\s*;\s*rel="next"/)?.[1];
}

/** What is wrong with one list's answers, in words (none when it follows the convention). */
async function problemsOf(path: string, op: Json): Promise<string[]> {
  const problems: string[] = [];
  const queryNames = (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name) as string[];
  const offsetName = queryNames.includes('skip') ? 'skip' : 'offset';
  if (!queryNames.includes(offsetName) || !queryNames.includes('limit')) return [`${path}: not paged by offset/limit`];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `<no ${name}>`);
  const required = (op.parameters ?? []).filter((p: Json) => p.in === 'query' && p.required);
  const query: Record<string, string> = {};
  for (const p of required) {
    if (p.name === 'tenant_id') return [`${path}: requires tenant_id`];
    if (!params[p.name]) return [`${path}: no value for its required query parameter ${p.name}`];
    query[p.name] = params[p.name]!;
  }
  const token = path === '/api/v1/tenants' ? admin : org.token;
  const get = (q: Record<string, string | number>, at = url) => call('GET', at, { token, query: { ...query, ...q } });

  const whole = await get({});
  if (whole.status !== 200) return [`${path}: ${whole.status} without tenant_id: ${whole.text.slice(0, 200)}`];
  const body = whole.body;
  if (!Array.isArray(body)) {
    const shape = ['items', 'limit', offsetName, 'next_offset'].filter((k) => !(k in body));
    if (shape.length > 0 || !Array.isArray(body.items)) return [`${path}: neither an array nor a page object`];
    const extra = Object.keys(body).filter((k) => !['items', 'total', 'limit', offsetName, 'next_offset'].includes(k));
    // The internet-health alerts also say whether the window was cut.
    if (extra.some((k) => k !== 'truncated'))
      problems.push(`${path}: fields beyond the page object: ${extra.join(', ')}`);
    if ('total' in body && whole.headers.get('x-total-count') !== String(body.total))
      problems.push(`${path}: X-Total-Count ${whole.headers.get('x-total-count')} is not total ${body.total}`);
  }
  const items = itemsOf(body);
  if (items.length < 50 && nextLink(whole.headers.get('link'))) problems.push(`${path}: a next link on the last page`);
  if (items.length < 2) {
    if (!UNSEEDED[path]) problems.push(`${path}: holds ${items.length} items, not the two seeded`);
    return problems;
  }

  const first = await get({ limit: 1, [offsetName]: 0 });
  if (first.status !== 200 || itemsOf(first.body).length !== 1)
    return [...problems, `${path}: limit=1 is not one item`];
  const next = nextLink(first.headers.get('link'));
  if (!next) return [...problems, `${path}: no Link rel="next" on a first page of 1 of ${items.length}`];
  if (!Array.isArray(first.body) && first.body.next_offset !== 1)
    problems.push(`${path}: next_offset ${first.body.next_offset}, not 1`);
  const followed = await call('GET', next, { token });
  if (followed.status !== 200) return [...problems, `${path}: following ${next} answers ${followed.status}`];
  const [a, b] = [itemsOf(first.body)[0], itemsOf(followed.body)[0]];
  if (!b || sameItem(a, b)) problems.push(`${path}: following ${next} gives the same item`);
  const second = await get({ limit: 1, offset: 1 });
  if (second.status !== 200 || !sameItem(itemsOf(second.body)[0], b))
    problems.push(`${path}: offset=1&limit=1 is not the item the link gave (${second.status})`);
  return problems;
}

describe('every list of the OpenAPI document', () => {
  it('answers a tenant user without tenant_id, in one of the two shapes, paged by offset/limit with a link to the next page', async () => {
    const lists = listOperations().filter(([path]) => !NOT_LISTS[path] && !CATALOGS[path]);
    // The exceptions name real operations, and the walk covers the lists this test seeds.
    for (const path of [...Object.keys(NOT_LISTS), ...Object.keys(CATALOGS), ...Object.keys(UNSEEDED)])
      expect(doc.paths[path]?.get, path).toBeDefined();
    expect(lists.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const [path, op] of lists) problems.push(...(await problemsOf(path, op)));
    expect(problems).toEqual([]);
  }, 180_000);

  it('documents Link on every list answer, and X-Total-Count where the page object carries total', () => {
    const missing = listOperations()
      .filter(([path]) => !NOT_LISTS[path] && !CATALOGS[path])
      .flatMap(([path, op]) => {
        const headers = Object.keys(op.responses['200'].headers ?? {});
        const counted = successSchema(op)?.properties?.total !== undefined;
        return [
          ...(headers.includes('Link') ? [] : [`${path}: Link`]),
          ...(counted && !headers.includes('X-Total-Count') ? [`${path}: X-Total-Count`] : []),
        ];
      });
    expect(missing).toEqual([]);
  });
});

describe('the audit log', () => {
  it('pages by skip, takes offset as its alias, and refuses both when they differ', async () => {
    const path = `/api/v1/audit-logs/${org.tenantId}`;
    const bySkip = await call('GET', path, { token: org.token, query: { skip: 1, limit: 1 } });
    const byOffset = await call('GET', path, { token: org.token, query: { offset: 1, limit: 1 } });
    expect(byOffset.status).toBe(200);
    expect(byOffset.body.items).toEqual(bySkip.body.items);
    expect(bySkip.body).toMatchObject({ skip: 1, limit: 1, next_offset: 2 });
    expect(nextLink(bySkip.headers.get('link'))).toBe(`${path}?skip=2&limit=1`);
    expect(nextLink(byOffset.headers.get('link'))).toBe(`${path}?offset=2&limit=1`);
    expect((await call('GET', path, { token: org.token, query: { skip: 1, offset: 1 } })).status).toBe(200);
    const both = await call('GET', path, { token: org.token, query: { skip: 1, offset: 2 } });
    expect(both.status).toBe(422);
    expect(both.body.detail.map((d: Json) => d.loc)).toEqual([
      ['query', 'skip'],
      ['query', 'offset'],
    ]);
  });
});
