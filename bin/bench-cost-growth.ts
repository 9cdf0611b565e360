/**
 * Cost-growth benchmark (a script, not a test; issue 39): does a request cost more as the tenant
 * holds more? Runs the local stack with the metering proxy in front of DynamoDB Local
 * (shared/local/dynamodb-meter.ts, through bin/metered-stack.ts) and no workers, seeds two tenants
 * set up alike at two sizes, then sends every GET route of the OpenAPI document (the route table,
 * shared/routes) to each, with the filter variants that matter, and prints one table: the calls and
 * read units of each request at both sizes (the median of three) and their ratio. A request whose
 * read units grow by more than 1.2 times is named. Then the median and largest event item written.
 *
 *   npm run bench:growth                  # 2,000 and 20,000 events: about 25 minutes on 2 cores
 *   BENCH_SCALE=0.1 npm run bench:growth  # a tenth of everything seeded, a few minutes
 *
 * Each tenant: 3 environments (one the vessels' strait, with a cable), 20 zones, 50 sensors, an
 * asset, a user, an API key, 2 webhooks, 2 threat libraries, an integration, a workflow and a run,
 * a watchlist entry, the tests' AIS traffic tracked into vessels, and at each size (small / large):
 * events (2,000 / 20,000: batches of 100 through POST /events/batch), incidents (200 / 2,000: one
 * POST each) and webhook deliveries (500 / 5,000: written with shared/db's own item, as the
 * dispatch worker writes them, since no route makes one).
 *
 * Options (env): BENCH_SCALE (times every seeded count, default 1), BENCH_REPEAT (requests per
 * measurement, the median kept; default 3). Exits 0 whatever it finds: the table is the result.
 */
import { randomUUID } from 'node:crypto';
import type { Tally } from '../shared/local/dynamodb-meter.js';
import { seedVessels } from './bench-vessels.js';
import { medianTally, startMeteredStack } from './metered-stack.js';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
/** A route whose read units at the large size are over this times the small's is named. */
const RATIO_BOUND = 1.2;

interface Size {
  label: 'small' | 'large';
  events: number;
  incidents: number;
  deliveries: number;
}
const scaled = (n: number) => Math.max(1, Math.round(n * SCALE));
const SIZES: Size[] = [
  { label: 'small', events: scaled(2_000), incidents: scaled(200), deliveries: scaled(500) },
  { label: 'large', events: scaled(20_000), incidents: scaled(2_000), deliveries: scaled(5_000) },
];
const ZONES = 20;
const SENSORS = 50;
/** An address some events carry: the threat score's `ip` target. */
const IP = '203.0.113.7';
/** Where the events and zones are: the correlation's point. */
const SITE = { lat: 59.91, lon: 10.75 };

// The webhooks point at a loopback address (nothing is delivered: no workers run).
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
// The handlers' metric lines (EMF, on stdout without a LOG_FILE) would bury the table.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const stack = await startMeteredStack('cost-growth');
const { api, meter } = stack;

/** One tenant, seeded: its administrator, its developer key and an id of each kind of resource. */
interface Tenant {
  size: Size;
  tenantId: string;
  token: string;
  developerKey: string;
  ids: Record<string, string>;
}

/** `tasks` run `width` at a time. */
async function pool(n: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

async function seed(size: Size, adminToken: string): Promise<Tenant> {
  const t0 = performance.now();
  const { token, tenantId, email } = await stack.signUpTenant(`Growth-${size.label}`);
  // No rate limit: the seeding sends thousands of requests a minute.
  await api('PATCH', `/api/v1/tenants/${tenantId}`, adminToken, { plan: 'enterprise' });
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, token, body);
  const id = async (field: string, method: string, path: string, body?: unknown) =>
    (await call<Record<string, string>>(method, path, body))[field]!;

  const vessels = await seedVessels(call, stack.url, token, tenantId);
  const environments = [
    await id('environment_id', 'POST', '/api/v1/environments', { name: 'Harbour', type: 'port' }),
    await id('environment_id', 'POST', '/api/v1/environments', { name: 'Terminal', type: 'port' }),
    vessels.environmentId,
  ];
  const zones: string[] = [];
  for (let i = 0; i < ZONES; i++)
    zones.push(
      await id('zone_id', 'POST', '/api/v1/zones', {
        environment_id: environments[i % 3],
        name: `Zone ${i}`,
        security_level: 1 + (i % 5),
        geofence: { type: 'Circle', center: [SITE.lon + i * 0.001, SITE.lat], radius_m: 200 },
      }),
    );
  const sensors: string[] = [];
  for (let i = 0; i < SENSORS; i++)
    sensors.push(
      await id('sensor_id', 'POST', '/api/v1/sensors', {
        // In its zone's environment.
        environment_id: environments[(i % ZONES) % 3],
        zone_id: zones[i % ZONES],
        name: `Sensor ${i}`,
        type: i % 2 ? 'radar' : 'camera',
        location: { lat: SITE.lat, lon: SITE.lon + (i % ZONES) * 0.001 },
      }),
    );
  const [file] = await call<{ file_id: string }[] | { items: { file_id: string }[] }>(
    'GET',
    `/api/v1/environments/${vessels.environmentId}/infrastructure`,
  ).then((r) => (Array.isArray(r) ? r : r.items));
  const ids: Record<string, string> = {
    tenant_id: tenantId,
    environment_id: environments[0]!,
    sea_environment_id: vessels.environmentId,
    zone_id: zones[0]!,
    sensor_id: sensors[0]!,
    file_id: file!.file_id,
    asset_id: await id('asset_id', 'POST', '/api/v1/assets', {
      environment_id: environments[0],
      name: 'Gate 1',
      type: 'gate',
      location: SITE,
    }),
    user_id: await id('user_id', 'POST', '/api/v1/users', {
      email: `viewer-${randomUUID()}@bench.example`,
      role: 'VIEWER',
      name: 'Viewer',
    }),
    key_id: await id('key_id', 'POST', '/api/v1/portal/api-keys', { name: 'growth bench', role: 'VIEWER' }),
    integration_id: await id('integration_id', 'POST', '/api/v1/integrations', {
      name: 'Receiver',
      kind: 'http',
      config: { url: 'http://127.0.0.1:9/integrations' },
    }),
    entry_id: await id('entry_id', 'POST', '/api/v1/watchlist/entries', {
      entity_type: 'domain',
      value: `growth-${size.label}.example.com`,
      label: 'Watched',
    }),
    mmsi: (await import('../test/support/ais.js')).VESSELS.loiterer.mmsi.toString(),
    agent_id: 'notifier',
    // No worker keeps threats here: the request for one is an unknown id's (404), at both sizes.
    threat_id: randomUUID(),
  };
  for (const [i, types] of [['incident.created'], ['perimeter.breach']].entries()) {
    const webhook = await id('webhook_id', 'POST', '/api/v1/webhooks', {
      url: `http://127.0.0.1:9/hooks-${i}`,
      event_types: types,
      description: `Webhook ${i}`,
    });
    ids.webhook_id ??= webhook;
  }
  for (const i of [0, 1]) {
    const library = await id('library_id', 'POST', '/api/v1/threat-libraries', {
      name: `Library ${i}`,
      description: 'Perimeter threats',
      vertical: 'security',
      definitions: [
        {
          name: `Breach ${i}`,
          description: 'A breach at the fence',
          severity: 'high',
          weight: 0.5,
          match: { event_types: ['perimeter.breach'], keywords: ['fence'] },
        },
      ],
    });
    ids.library_id ??= library;
  }
  ids.workflow_id = await id('workflow_id', 'POST', '/api/v1/workflows', {
    name: 'Tell the receiver',
    trigger: { type: 'manual' },
    actions: [{ type: 'notify_integration', integration_id: ids.integration_id, message: 'An incident' }],
  });
  ids.run_id = await id('run_id', 'POST', `/api/v1/workflows/${ids.workflow_id}/run`, { values: {} });

  // Events, spread over the last six days, a tenth of them naming IP.
  const now = Date.now();
  const TYPES = ['motion.detected', 'perimeter.breach', 'access.denied', 'sensor.alert', 'vehicle.detected'];
  const event = (i: number) => {
    const at = new Date(now - Math.floor(((size.events - i) / size.events) * 6 * 86_400_000)).toISOString();
    const base = {
      type: TYPES[i % TYPES.length],
      occurred_at: at,
      description: i % 10 === 0 ? `Connection from ${IP} at the fence` : `Movement ${i} near the fence`,
      payload: { seq: i, speed_mps: (i % 7) + 0.5, ...(i % 10 === 0 ? { source_ip: IP } : {}) },
    };
    // Half from a sensor (source `sensor`), half sent by a client with a place (source `api`).
    return i % 2
      ? { ...base, sensor_id: sensors[i % SENSORS] }
      : {
          ...base,
          environment_id: environments[i % 2],
          location: { lat: SITE.lat + (i % 13) * 0.0002, lon: SITE.lon + (i % ZONES) * 0.001 },
        };
  };
  await pool(Math.ceil(size.events / 100), 4, (b) =>
    call('POST', '/api/v1/events/batch', {
      events: Array.from({ length: Math.min(100, size.events - b * 100) }, (_, i) => event(b * 100 + i)),
    }),
  );
  const SEVERITIES = ['low', 'medium', 'high', 'critical'];
  const incidents: string[] = [];
  await pool(size.incidents, 8, async (i) =>
    incidents.push(
      await id('incident_id', 'POST', '/api/v1/incidents', {
        title: `Incident ${i}`,
        description: `Someone at the fence, report ${i}`,
        severity: SEVERITIES[i % SEVERITIES.length],
        environment_id: environments[i % 3],
        location: { lat: SITE.lat, lon: SITE.lon + (i % ZONES) * 0.001 },
      }),
    ),
  );
  ids.incident_id = incidents[0]!;
  await seedDeliveries(tenantId, ids.webhook_id!, size.deliveries);
  ids.delivery_id = (
    await call<{ items: { delivery_id: string }[] }>('GET', `/api/v1/webhooks/${ids.webhook_id}/deliveries?limit=1`)
  ).items[0]!.delivery_id;
  ids.event_id = (
    await call<{ event_id: string }[]>('GET', `/api/v1/events?tenant_id=${tenantId}&limit=1`)
  )[0]!.event_id;
  ids.log_id = (
    await call<{ items: { log_id: string }[] }>(
      'GET',
      `/api/v1/audit-logs/${tenantId}?action=environment.created&limit=1`,
    )
  ).items[0]!.log_id;
  const developerKey = (await call<{ api_key: string }>('POST', '/v1/auth/keys', { email, tier: 'pro' })).api_key;
  console.error(
    `seeded ${size.label}: ${size.events} events, ${size.incidents} incidents, ${size.deliveries} deliveries in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return { size, tenantId, token, developerKey, ids };
}

/**
 * Deliveries of one webhook, as the dispatch worker writes them (shared/db's item, in
 * transactions): no route makes one. A quarter failed, a tenth pending, the rest delivered, over
 * the last six days.
 */
async function seedDeliveries(tenantId: string, webhookId: string, n: number): Promise<void> {
  const { putNewDelivery } = await import('../shared/db/webhooks/index.js');
  const { transactWrite } = await import('../shared/db/transact.js');
  const { derivedTimeId } = await import('../shared/ids.js');
  const now = Date.now();
  const delivery = (i: number) => {
    const at = now - Math.floor(((n - i) / n) * 6 * 86_400_000);
    const iso = new Date(at).toISOString();
    const status = i % 4 === 0 ? 'failed' : i % 10 === 1 ? 'pending' : 'delivered';
    const messageId = randomUUID();
    return putNewDelivery({
      delivery_id: derivedTimeId(at, messageId, 0),
      webhook_id: webhookId,
      tenant_id: tenantId as Parameters<typeof putNewDelivery>[0]['tenant_id'],
      event_type: 'incident.created',
      message_id: messageId,
      payload: JSON.stringify({ type: 'incident.created', timestamp: iso, data: { incident_id: randomUUID() } }),
      status,
      attempts: [
        {
          attempt: 1,
          at: iso,
          status_code: status === 'failed' ? 500 : status === 'delivered' ? 200 : null,
          latency_ms: 40,
          error: status === 'pending' ? 'timeout' : null,
          replay: false,
        },
      ],
      next_attempt_at: status === 'pending' ? new Date(at + 60_000).toISOString() : null,
      failure_reason: status === 'failed' ? 'exhausted' : null,
      created_at: iso,
      updated_at: iso,
    });
  };
  await pool(Math.ceil(n / 25), 4, (b) =>
    transactWrite(Array.from({ length: Math.min(25, n - b * 25) }, (_, i) => delivery(b * 25 + i))),
  );
}

/** One request the benchmark sends to both tenants. */
interface Probe {
  routeId: string;
  /** What distinguishes it from the route's other probes (a filter), if anything. */
  variant?: string;
  /** Path and query, from the tenant's ids. */
  path: (t: Tenant) => string;
  /** Whose credential: the tenant's administrator (default), the platform's, the developer key, none. */
  as?: 'admin' | 'developer' | 'public';
  /** A stream: read for this long, then closed. */
  streamMs?: number;
}

const day = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const e = (t: Tenant) => t.ids;
const PROBES: Probe[] = [
  { routeId: 'health', path: () => '/health', as: 'public' },
  { routeId: 'openapi', path: () => '/openapi.json', as: 'public' },
  { routeId: 'docs', path: () => '/docs', as: 'public' },
  { routeId: 'docs.asset', path: () => '/docs/swagger-ui.css', as: 'public' },
  { routeId: 'portal.register.confirm.page', path: () => '/api/v1/portal/register/confirm?token=x', as: 'public' },
  { routeId: 'portal.plans', path: () => '/api/v1/portal/plans', as: 'public' },
  { routeId: 'portal.me', path: () => '/api/v1/portal/me' },
  { routeId: 'portal.settings.get', path: () => '/api/v1/portal/settings' },
  { routeId: 'portal.apiKeys.list', path: () => '/api/v1/portal/api-keys' },
  { routeId: 'users.list', path: () => '/api/v1/users' },
  { routeId: 'users.get', path: (t) => `/api/v1/users/${e(t).user_id}` },
  { routeId: 'tenants.list', path: () => '/api/v1/tenants', as: 'admin' },
  { routeId: 'tenants.get', path: (t) => `/api/v1/tenants/${t.tenantId}`, as: 'admin' },
  { routeId: 'tenants.config.get', path: (t) => `/api/v1/tenants/${t.tenantId}/config`, as: 'admin' },
  { routeId: 'environments.list', path: () => '/api/v1/environments' },
  { routeId: 'environments.get', path: (t) => `/api/v1/environments/${e(t).environment_id}` },
  { routeId: 'zones.list', path: (t) => `/api/v1/zones?environment_id=${e(t).environment_id}` },
  { routeId: 'zones.get', path: (t) => `/api/v1/zones/${e(t).zone_id}` },
  { routeId: 'sensors.list', path: (t) => `/api/v1/sensors?environment_id=${e(t).environment_id}` },
  { routeId: 'sensors.get', path: (t) => `/api/v1/sensors/${e(t).sensor_id}` },
  {
    routeId: 'sensors.telemetryRead',
    path: (t) => `/api/v1/sensors/${e(t).sensor_id}/telemetry?from=${day(1)}&to=${day(0)}`,
  },
  { routeId: 'assets.list', path: () => '/api/v1/assets' },
  { routeId: 'assets.get', path: (t) => `/api/v1/assets/${e(t).asset_id}` },
  { routeId: 'infrastructure.lines', path: () => '/api/v1/infrastructure/lines' },
  {
    routeId: 'infrastructure.status',
    path: (t) => `/api/v1/environments/${e(t).sea_environment_id}/infrastructure/${e(t).file_id}/status`,
  },
  { routeId: 'infrastructure.list', path: (t) => `/api/v1/environments/${e(t).sea_environment_id}/infrastructure` },
  {
    routeId: 'infrastructure.features',
    path: (t) => `/api/v1/environments/${e(t).sea_environment_id}/infrastructure/${e(t).file_id}/features`,
  },
  {
    routeId: 'events.stream',
    variant: 'one poll',
    path: (t) => `/api/v1/events/stream?tenant_id=${t.tenantId}`,
    streamMs: 2_500,
  },
  { routeId: 'events.list', variant: 'limit=20', path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&limit=20` },
  {
    routeId: 'events.list',
    variant: 'environment+type',
    path: (t) =>
      `/api/v1/events?tenant_id=${t.tenantId}&environment_id=${e(t).environment_id}&type=perimeter.breach&limit=20`,
  },
  {
    routeId: 'events.list',
    variant: 'source=api',
    path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&source=api&limit=20`,
  },
  {
    routeId: 'events.list',
    variant: 'processed=false',
    path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&processed=false&limit=20`,
  },
  {
    routeId: 'events.list',
    variant: 'min_score=0.6',
    path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&min_score=0.6&limit=20`,
  },
  {
    routeId: 'events.list',
    variant: 'q=zzz (no match)',
    path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&q=zzz&limit=20`,
  },
  {
    routeId: 'events.list',
    variant: 'zone_id',
    path: (t) => `/api/v1/events?tenant_id=${t.tenantId}&zone_id=${e(t).zone_id}&limit=20`,
  },
  { routeId: 'events.get', path: (t) => `/api/v1/events/${e(t).event_id}?tenant_id=${t.tenantId}` },
  { routeId: 'incidents.list', variant: 'limit=20', path: () => '/api/v1/incidents?limit=20' },
  {
    routeId: 'incidents.list',
    variant: 'sort_by=updated_at',
    path: () => '/api/v1/incidents?limit=20&sort_by=updated_at',
  },
  { routeId: 'incidents.list', variant: 'sort_by=severity', path: () => '/api/v1/incidents?limit=20&sort_by=severity' },
  { routeId: 'incidents.list', variant: 'status=confirmed', path: () => '/api/v1/incidents?limit=20&status=confirmed' },
  { routeId: 'incidents.list', variant: 'severity=high', path: () => '/api/v1/incidents?limit=20&severity=high' },
  {
    routeId: 'incidents.list',
    variant: 'environment_id',
    path: (t) => `/api/v1/incidents?limit=20&environment_id=${e(t).environment_id}`,
  },
  { routeId: 'incidents.list', variant: 'zone_id', path: (t) => `/api/v1/incidents?limit=20&zone_id=${e(t).zone_id}` },
  { routeId: 'incidents.list', variant: 'offset=100', path: () => '/api/v1/incidents?limit=20&offset=100' },
  { routeId: 'incidents.get', path: (t) => `/api/v1/incidents/${e(t).incident_id}` },
  {
    routeId: 'incidents.acknowledge.page',
    path: (t) => `/api/v1/incidents/${e(t).incident_id}/acknowledge?token=x`,
    as: 'public',
  },
  { routeId: 'feed.list', path: () => '/api/v1/feed' },
  { routeId: 'replay.timeline', path: (t) => `/api/v1/replay/${e(t).incident_id}` },
  { routeId: 'replay.snapshot', path: (t) => `/api/v1/replay/${e(t).incident_id}/snapshot` },
  { routeId: 'threatLibraries.list', path: () => '/api/v1/threat-libraries' },
  { routeId: 'threatLibraries.get', path: (t) => `/api/v1/threat-libraries/${e(t).library_id}` },
  { routeId: 'threatIntel.libraries', path: () => '/api/v1/threat-intel/libraries' },
  { routeId: 'integrations.list', path: () => '/api/v1/integrations' },
  { routeId: 'integrations.get', path: (t) => `/api/v1/integrations/${e(t).integration_id}` },
  { routeId: 'drones.list', path: (t) => `/api/v1/incidents/${e(t).incident_id}/drone-dispatches` },
  { routeId: 'webhooks.events', path: () => '/api/v1/webhooks/events', as: 'public' },
  { routeId: 'webhooks.list', path: () => '/api/v1/webhooks' },
  { routeId: 'webhooks.get', path: (t) => `/api/v1/webhooks/${e(t).webhook_id}` },
  {
    routeId: 'webhooks.deliveries',
    variant: 'limit=20',
    path: (t) => `/api/v1/webhooks/${e(t).webhook_id}/deliveries?limit=20`,
  },
  {
    routeId: 'webhooks.deliveries',
    variant: 'status=failed',
    path: (t) => `/api/v1/webhooks/${e(t).webhook_id}/deliveries?status=failed&limit=20`,
  },
  { routeId: 'auditLogs.list', variant: 'limit=20', path: (t) => `/api/v1/audit-logs/${t.tenantId}?limit=20` },
  {
    routeId: 'auditLogs.list',
    variant: 'action=zone.created',
    path: (t) => `/api/v1/audit-logs/${t.tenantId}?action=zone.created&limit=20`,
  },
  { routeId: 'auditLogs.verify', path: (t) => `/api/v1/audit-logs/${t.tenantId}/verify` },
  {
    routeId: 'auditLogs.export',
    variant: 'last day',
    path: (t) => `/api/v1/audit-logs/${t.tenantId}/export?from=${day(1)}`,
  },
  { routeId: 'auditLogs.get', path: (t) => `/api/v1/audit-logs/${t.tenantId}/${e(t).log_id}` },
  { routeId: 'analytics.threats', path: () => '/api/v1/analytics/threats' },
  { routeId: 'analytics.summary', path: () => '/api/v1/analytics/summary' },
  { routeId: 'threats.list', path: () => '/api/v1/threats' },
  { routeId: 'threats.get', variant: 'unknown id', path: (t) => `/api/v1/threats/${e(t).threat_id}` },
  { routeId: 'threatScore.get', variant: 'ip', path: () => `/api/v1/threat-score?target=${IP}&target_type=ip` },
  {
    routeId: 'threatScore.get',
    variant: 'mmsi',
    path: (t) => `/api/v1/threat-score?target=${e(t).mmsi}&target_type=mmsi&context=maritime`,
  },
  { routeId: 'workflows.list', path: () => '/api/v1/workflows' },
  { routeId: 'workflows.get', path: (t) => `/api/v1/workflows/${e(t).workflow_id}` },
  { routeId: 'workflows.runs', path: (t) => `/api/v1/workflows/${e(t).workflow_id}/runs` },
  { routeId: 'workflows.runs.get', path: (t) => `/api/v1/workflows/${e(t).workflow_id}/runs/${e(t).run_id}` },
  { routeId: 'liveStatus', path: () => '/api/v1/live-status', as: 'public' },
  { routeId: 'agents.list', path: () => '/api/v1/agents' },
  { routeId: 'agents.get', path: (t) => `/api/v1/agents/${e(t).agent_id}` },
  { routeId: 'vessels.list', path: () => '/api/v1/vessels' },
  { routeId: 'vessels.dark', path: () => '/api/v1/vessels/dark' },
  { routeId: 'vessels.aisStats', path: () => '/api/v1/vessels/ais-stats' },
  { routeId: 'vessels.get', path: (t) => `/api/v1/vessels/${e(t).mmsi}` },
  { routeId: 'vessels.track', path: (t) => `/api/v1/vessels/${e(t).mmsi}/track` },
  { routeId: 'vessels.cableRisk', path: () => '/api/v1/cable-risk?lat=51.15&lon=1.6' },
  { routeId: 'watchlist.list', path: () => '/api/v1/watchlist/entries' },
  { routeId: 'watchlist.get', path: (t) => `/api/v1/watchlist/entries/${e(t).entry_id}` },
  { routeId: 'watchlist.alerts', path: () => '/api/v1/watchlist/alerts' },
  { routeId: 'connectors.list', path: () => '/api/v1/connectors' },
  { routeId: 'threatFeed.vulnerabilities', path: () => '/api/v1/threat-feed/vulnerabilities?product=windows' },
  { routeId: 'threatFeed.indicators', path: () => `/api/v1/threat-feed/indicators?ip=${IP}` },
  { routeId: 'spaceWeather.get', path: () => '/api/v1/space-weather' },
  { routeId: 'environmentalRisk.get', path: (t) => `/api/v1/environmental-risk?environment_id=${e(t).environment_id}` },
  { routeId: 'internetHealth.get', path: () => '/api/v1/internet-health' },
  { routeId: 'internetHealth.bgpAlerts', path: () => '/api/v1/internet-health/bgp-alerts' },
  { routeId: 'geopoliticalRisk.get', path: () => '/api/v1/geopolitical-risk' },
  { routeId: 'developer.usage', path: () => '/v1/usage', as: 'developer' },
  {
    routeId: 'developer.threatScore',
    variant: 'ip',
    path: () => `/v1/threat-score?target=${IP}&target_type=ip`,
    as: 'developer',
  },
  { routeId: 'developer.vesselProfile', path: (t) => `/v1/vessel-profile?mmsi=${e(t).mmsi}`, as: 'developer' },
  { routeId: 'developer.cableRisk', path: () => '/v1/cable-risk?lat=51.15&lon=1.6', as: 'developer' },
  { routeId: 'data-lake.tables', path: () => '/api/v1/data-lake/tables' },
  { routeId: 'correlation.get', variant: 'a point', path: () => `/api/v1/correlation?lat=${SITE.lat}&lon=${SITE.lon}` },
  {
    routeId: 'correlation.get',
    variant: 'an incident',
    path: (t) => `/api/v1/correlation?incident_id=${e(t).incident_id}`,
  },
];

/** Sends one probe; its status (a stream's: of its opening). */
async function send(probe: Probe, t: Tenant, adminToken: string): Promise<number> {
  const credential =
    probe.as === 'public'
      ? undefined
      : probe.as === 'admin'
        ? adminToken
        : probe.as === 'developer'
          ? t.developerKey
          : t.token;
  const controller = new AbortController();
  const res = await fetch(new URL(probe.path(t), stack.url), {
    headers: credential ? { authorization: `Bearer ${credential}` } : {},
    signal: controller.signal,
  });
  if (probe.streamMs) {
    await new Promise((resolve) => setTimeout(resolve, probe.streamMs));
    controller.abort();
    await res.body?.cancel().catch(() => undefined);
  } else await res.arrayBuffer();
  return res.status;
}

interface Measured {
  status: number;
  tally: Tally;
}

/** The median of REPEAT requests' tallies, after one unmeasured (caches warm, as in steady use). */
async function measure(probe: Probe, t: Tenant, adminToken: string): Promise<Measured> {
  let status = await send(probe, t, adminToken);
  const tallies: Tally[] = [];
  for (let i = 0; i < REPEAT; i++)
    tallies.push(await stack.tallyOf(async () => (status = await send(probe, t, adminToken))));
  return { status, tally: medianTally(tallies) };
}

const total = (t: Tally, field: 'calls' | 'readUnits') => Object.values(t).reduce((s, o) => s + o[field], 0);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

try {
  const adminToken = await stack.adminToken();
  // Seeding keeps only the sizes of what it writes (no units counted: far fewer extra calls).
  meter.counting = false;
  const tenants: Tenant[] = [];
  for (const size of SIZES) tenants.push(await seed(size, adminToken));
  const eventSizes = meter.sizes.of('EVENT').sort((a, b) => a - b);
  meter.counting = true;
  // Zones are read once their last change has settled (shared/domain/sites/zone-cache.ts).
  const { SETTLE_MS } = await import('../shared/domain/sites/index.js');
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

  const { ROUTES } = await import('../shared/routes/index.js');
  const probed = new Set(PROBES.map((p) => p.routeId));
  const unprobed = ROUTES.filter((r) => r.method === 'GET' && !probed.has(r.id)).map((r) => r.id);
  const rows: { label: string; small: Measured; large: Measured; ratio: number }[] = [];
  for (const probe of PROBES) {
    const [small, large] = [
      await measure(probe, tenants[0]!, adminToken),
      await measure(probe, tenants[1]!, adminToken),
    ];
    // No reads at either size: flat (1).
    const [rs, rl] = [total(small.tally, 'readUnits'), total(large.tally, 'readUnits')];
    const ratio = rs === 0 && rl === 0 ? 1 : rl / Math.max(rs, 0.5);
    rows.push({ label: probe.variant ? `${probe.routeId} (${probe.variant})` : probe.routeId, small, large, ratio });
  }

  const [s, l] = SIZES;
  console.log(
    `\nread cost as a tenant grows: small ${s!.events} events, ${s!.incidents} incidents, ${s!.deliveries} deliveries; large ${l!.events}, ${l!.incidents}, ${l!.deliveries}` +
      `\n(every GET route of the route table, the median of ${REPEAT} requests each through the metering proxy, no workers; RRU: read units)\n`,
  );
  const width = Math.max(...rows.map((r) => r.label.length));
  console.log(
    `${'request'.padEnd(width)}  ${'calls S'.padStart(7)} ${'calls L'.padStart(7)} ${'RRU S'.padStart(7)} ${'RRU L'.padStart(7)} ${'ratio'.padStart(6)}  status`,
  );
  for (const r of rows) {
    const status = r.small.status === r.large.status ? String(r.small.status) : `${r.small.status}/${r.large.status}`;
    console.log(
      `${r.label.padEnd(width)}  ${String(total(r.small.tally, 'calls')).padStart(7)} ${String(total(r.large.tally, 'calls')).padStart(7)} ${total(r.small.tally, 'readUnits').toFixed(1).padStart(7)} ${total(r.large.tally, 'readUnits').toFixed(1).padStart(7)} ${r.ratio.toFixed(2).padStart(6)}  ${status}`,
    );
  }
  const growing = rows.filter((r) => r.ratio > RATIO_BOUND);
  console.log(
    `\nread units over ${RATIO_BOUND} times at the large size (${growing.length} of ${rows.length}): ${growing.map((r) => r.label).join(', ') || 'none'}`,
  );
  if (unprobed.length > 0) console.log(`GET routes not measured (no probe in this script): ${unprobed.join(', ')}`);
  if (eventSizes.length > 0)
    console.log(
      `event items written: ${eventSizes.length}, median ${percentile(eventSizes, 0.5)} bytes, largest ${eventSizes[eventSizes.length - 1]} bytes (DynamoDB's size: names and values)`,
    );
} catch (error) {
  // A benchmark: says what failed, and exits 0 all the same.
  console.error('the benchmark failed:', error);
} finally {
  await stack.stop();
}
process.exit(0);
