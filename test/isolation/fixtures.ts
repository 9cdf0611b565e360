/**
 * THE fixture registry of the isolation suite: for every parameter name a route can use to name a
 * tenant's resource (a path parameter, or a reference in a query or body), how to make one such
 * resource in a tenant, through the API, as that tenant's TENANT_ADMIN.
 *
 * Tenants A and B each get one resource of every kind. The suite then calls every route with A's
 * resource where B's would be legitimate, and expects "unknown id" (404).
 *
 * ## Adding a resource kind (later issues)
 * When a route takes a parameter the registry does not know (`{environment_id}`, a required
 * `zone_id` in a body, `sensor_ids: [uuid]`), the suite fails with "no fixture for ...". Add one
 * entry keyed by the parameter name:
 *
 *     environment_id: {
 *       owned: true,
 *       create: async (t) => {
 *         const res = await t.call('POST', '/api/v1/environments', { body: { name: t.name('environment') } });
 *         return created(res, 'environment_id');
 *       },
 *     },
 *     zone_id: {
 *       owned: true,
 *       needs: ['environment_id'],          // created after these; their ids are in t.ids
 *       create: async (t) => created(await t.call('POST', '/api/v1/zones', {
 *         body: { environment_id: t.ids.environment_id, name: t.name('zone') },
 *       }), 'zone_id'),
 *     },
 *
 * Put the tenant's marker in every name and free-text field (`t.name(...)`, `t.email(...)`), so a
 * response that shows any of A's data is caught; call `t.remember(secret)` for anything else that
 * must never reach another tenant (an API key, a webhook secret). A plural reference
 * (`sensor_ids`) is filled from the singular entry (`sensor_id`). A property that ends in `_id` or
 * has `format: uuid` but names no tenant resource goes in NOT_REFERENCES, with the reason (by name
 * everywhere, or by `route <id> <part>.<name>` for one route's property).
 */
import { randomUUID } from 'node:crypto';
import type { ApiResponse, CallOptions } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { pipelineDeadline } from '../support/pipeline.js';

let receiver: Promise<Receiver> | undefined;
/** The loopback receiver the tenants' webhooks deliver to (it answers 200 to all). */
export function sink(): Promise<Receiver> {
  return (receiver ??= startReceiver());
}
/** Closes the receiver, if one was started. */
export async function closeSink(): Promise<void> {
  if (receiver) await (await receiver).close();
}

/** What a fixture's `create` gets: one tenant, seen through its TENANT_ADMIN. */
export interface FixtureTenant {
  label: 'A' | 'B';
  /** Unique per tenant and run, e.g. `MARKER-A-k3j9x0q2`; must appear in every name of the tenant. */
  marker: string;
  tenantId: string;
  /** Ids of the kinds created so far in this tenant (at least those in `needs`). */
  ids: Readonly<Record<string, string>>;
  /** An API call as the tenant's TENANT_ADMIN (bearer token). */
  call(method: string, path: string, opts?: CallOptions): Promise<ApiResponse>;
  /** A display name carrying the marker. */
  name(what: string): string;
  /** A unique email carrying the marker. */
  email(what: string): string;
  /** A strong password, unique. */
  password(): string;
  /** A value that must never appear in a response to another tenant. */
  remember(secret: string): void;
  /** An account that must still log in when the suite ends. */
  addLogin(email: string, password: string): void;
}

export interface Fixture {
  /**
   * True for a resource of one tenant: A's is answered to B as an unknown id (404). False for a
   * value everyone shares (a docs asset name): both tenants get the same value and it names nothing.
   */
  owned: boolean;
  /** Kinds created before this one (their ids are in `t.ids`). */
  needs?: readonly string[];
  /** Makes one resource in the tenant and returns its id (the value the parameter takes). */
  create(t: FixtureTenant): Promise<string>;
  /** An id of this kind that exists nowhere; a random UUID unless given. */
  unknown?(): string;
  /** A value of the parameter's shape for the planner's dry run (tenant A's, B's); a UUID unless given. */
  sample?(owner: 'A' | 'B'): string;
}

/** The id in a 201 answer; throws with the answer otherwise. */
export function created(res: ApiResponse, idField: string): string {
  const id = (res.body as Record<string, unknown> | undefined)?.[idField];
  if (res.status !== 201 || typeof id !== 'string') {
    throw new Error(
      `fixture creation failed: expected 201 with ${idField}, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  return id;
}

export const FIXTURES: Readonly<Record<string, Fixture>> = {
  /** The tenant itself: made by registration (see seed.ts), named by `tenant_id` everywhere. */
  tenant_id: { owned: true, create: async (t) => t.tenantId },

  /** A user who is not one of the principals, so no attempt can lock a principal out. */
  user_id: {
    owned: true,
    create: async (t) => {
      const email = t.email('fixture-user');
      const password = t.password();
      const res = await t.call('POST', '/api/v1/users', {
        body: { email, role: 'VIEWER', name: t.name('fixture user'), password },
      });
      t.addLogin(email, password);
      return created(res, 'user_id');
    },
  },

  /** A user to assign incidents to (a reference to a user under another name). */
  assignee_id: {
    owned: true,
    create: async (t) => {
      const res = await t.call('POST', '/api/v1/users', {
        body: { email: t.email('assignee'), role: 'OPERATOR', name: t.name('assignee') },
      });
      return created(res, 'user_id');
    },
  },

  /** An API key that is not one of the principals' keys. */
  key_id: {
    owned: true,
    create: async (t) => {
      const res = await t.call('POST', '/api/v1/portal/api-keys', {
        body: { name: t.name('fixture key'), role: 'VIEWER' },
      });
      const key = (res.body as { api_key?: string }).api_key;
      if (key) t.remember(key);
      return created(res, 'key_id');
    },
  },

  environment_id: {
    owned: true,
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/environments', {
          body: {
            name: t.name('environment'),
            type: 'port',
            description: t.name('environment description'),
            address: t.name('address'),
          },
        }),
        'environment_id',
      ),
  },

  zone_id: {
    owned: true,
    needs: ['environment_id'],
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/zones', {
          body: {
            environment_id: t.ids.environment_id,
            name: t.name('zone'),
            description: t.name('zone description'),
            geofence: { type: 'Circle', center: [10.7, 59.9], radius_m: 250 },
          },
        }),
        'zone_id',
      ),
  },

  sensor_id: {
    owned: true,
    needs: ['environment_id', 'zone_id'],
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/sensors', {
          body: {
            environment_id: t.ids.environment_id,
            zone_id: t.ids.zone_id,
            name: t.name('sensor'),
            type: 'radar',
            location: { lat: 59.9, lon: 10.7 },
            serial_number: t.name('serial'),
          },
        }),
        'sensor_id',
      ),
  },

  asset_id: {
    owned: true,
    needs: ['environment_id'],
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/assets', {
          body: {
            environment_id: t.ids.environment_id,
            name: t.name('asset'),
            type: 'gate',
            location: { lat: 59.9, lon: 10.7 },
            description: t.name('asset description'),
          },
        }),
        'asset_id',
      ),
  },

  /** An infrastructure file, through the presigned flow (upload-url, PUT, extract): JSON calls only. */
  file_id: {
    owned: true,
    needs: ['environment_id'],
    create: async (t) => {
      const base = `/api/v1/environments/${t.ids.environment_id}/infrastructure`;
      const data = JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { name: t.name('fence line') },
            geometry: {
              type: 'LineString',
              coordinates: [
                [10.7, 59.9],
                [10.71, 59.91],
              ],
            },
          },
        ],
      });
      const ticket = await t.call('POST', `${base}/upload-url`, {
        body: { filename: 'fence.geojson', size_bytes: Buffer.byteLength(data) },
      });
      const {
        file_id: fileId,
        upload_url: url,
        headers,
      } = ticket.body as { file_id: string; upload_url: string; headers: Record<string, string> };
      if (ticket.status !== 201) throw new Error(`fixture upload-url failed: ${ticket.status} ${ticket.text}`);
      const put = await fetch(url, { method: 'PUT', headers, body: data });
      if (!put.ok) throw new Error(`fixture PUT failed: ${put.status}`);
      return created(await t.call('POST', `${base}/${fileId}/extract`), 'file_id');
    },
  },

  /** A line of the tenant's infrastructure file (`<file_id>:<line>`), as a fibre sensor's mapping names it. */
  line_id: {
    owned: true,
    needs: ['file_id'],
    create: async (t) => `${t.ids.file_id}:0`,
    unknown: () => `${randomUUID()}:0`,
    sample: (owner) =>
      `${owner === 'A' ? '0190a000-0000-7000-8000-00000000000a' : '0190a000-0000-7000-8000-00000000000b'}:0`,
  },

  /** An event, ingested as A's administrator with A's marker in its text. */
  event_id: {
    owned: true,
    needs: ['environment_id'],
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/events', {
          body: {
            type: 'perimeter.breach',
            environment_id: t.ids.environment_id,
            description: t.name('event'),
            payload: { note: t.name('payload') },
          },
        }),
        'event_id',
      ),
  },

  /** An incident opened by A's administrator, confirmed (so it has an acknowledgement link too). */
  incident_id: {
    owned: true,
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/incidents', {
          body: { title: t.name('incident'), description: t.name('incident description'), severity: 'high' },
        }),
        'incident_id',
      ),
  },

  /**
   * A webhook subscription to incident.created at a receiver on loopback that takes everything (so
   * deliveries settle at once, rather than retry while A is snapshotted); its secret must stay A's.
   */
  webhook_id: {
    owned: true,
    create: async (t) => {
      const res = await t.call('POST', '/api/v1/webhooks', {
        body: {
          url: `${(await sink()).url}/hooks-${t.label}`,
          event_types: ['incident.created'],
          description: t.name('webhook'),
        },
      });
      const secret = (res.body as { secret?: string }).secret;
      if (secret) t.remember(secret);
      return created(res, 'webhook_id');
    },
  },

  /** A delivery of the tenant's webhook: of an incident opened once the subscription exists, delivered. */
  delivery_id: {
    owned: true,
    needs: ['webhook_id'],
    create: async (t) => {
      created(
        await t.call('POST', '/api/v1/incidents', { body: { title: t.name('delivered incident'), severity: 'high' } }),
        'incident_id',
      );
      const deadline = pipelineDeadline();
      for (;;) {
        const res = await t.call('GET', `/api/v1/webhooks/${t.ids.webhook_id}/deliveries`);
        const items = (res.body as { items?: { delivery_id: string; status: string }[] }).items ?? [];
        if (items.length > 0 && items.every((d) => d.status === 'delivered')) return items[0]!.delivery_id;
        if (Date.now() > deadline)
          throw new Error(`fixture delivery not delivered: ${res.status} ${res.text.slice(0, 300)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  },

  /** An audit entry of the tenant: the newest, once its other fixtures were made (it names them). */
  log_id: {
    owned: true,
    needs: ['environment_id'],
    create: async (t) => {
      const res = await t.call('GET', `/api/v1/audit-logs/${t.tenantId}`, {
        query: { action: 'environment.created', limit: '1' },
      });
      const id = (res.body as { items?: { log_id: string }[] }).items?.[0]?.log_id;
      if (res.status !== 200 || !id)
        throw new Error(`fixture audit entry not found: ${res.status} ${res.text.slice(0, 300)}`);
      return id;
    },
  },

  /** A signed HTTP integration to a receiver that is never there; its signing secret must stay A's. */
  integration_id: {
    owned: true,
    create: async (t) => {
      const res = await t.call('POST', '/api/v1/integrations', {
        body: { name: t.name('integration'), kind: 'http', config: { url: 'http://127.0.0.1:9/integrations' } },
      });
      const secret = (res.body as { secret?: string }).secret;
      if (secret) t.remember(secret);
      return created(res, 'integration_id');
    },
  },

  /** A connector (a `feed` integration) polling a source that is never there; its status must stay A's. */
  connector_id: {
    owned: true,
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/integrations', {
          body: {
            name: t.name('connector'),
            kind: 'feed',
            config: { feed: 'swpc-kp', url: `http://127.0.0.1:9/${t.marker}/kp.json` },
          },
        }),
        'integration_id',
      ),
  },

  /** A threat library with one definition whose text carries the marker (its match conditions must stay A's too). */
  library_id: {
    owned: true,
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/threat-libraries', {
          body: {
            name: t.name('threat library'),
            description: t.name('threat library description'),
            vertical: 'security',
            definitions: [
              {
                name: t.name('definition'),
                description: t.name('definition description'),
                severity: 'high',
                weight: 0.5,
                match: { event_types: ['perimeter.breach'], keywords: [t.name('keyword')] },
              },
            ],
          },
        }),
        'library_id',
      ),
  },

  /** A threat: the library's definition matched by an event in the zone (its keyword in the description), once the counting worker kept it. */
  threat_id: {
    owned: true,
    needs: ['library_id', 'zone_id', 'environment_id'],
    create: async (t) => {
      const event = await t.call('POST', '/api/v1/events', {
        body: {
          type: 'perimeter.breach',
          environment_id: t.ids.environment_id,
          location: { lat: 59.9, lon: 10.7 },
          description: t.name('keyword'),
        },
      });
      if (event.status !== 201)
        throw new Error(`fixture event not stored: ${event.status} ${event.text.slice(0, 300)}`);
      for (let tries = 0; tries < 100; tries++) {
        const res = await t.call('GET', '/api/v1/threats');
        const id = (res.body as { threat_id: string }[])[0]?.threat_id;
        if (id) return id;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('fixture threat never appeared');
    },
  },

  /**
   * A playbook that waits ten hours and then tells the tenant's integration (with the marker in its
   * message): its runs park at once and stay still while A is snapshotted (no sweep comes near).
   */
  workflow_id: {
    owned: true,
    needs: ['integration_id'],
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/workflows', {
          body: {
            name: t.name('workflow'),
            description: t.name('workflow description'),
            trigger: { type: 'manual' },
            actions: [
              { type: 'wait', minutes: 600 },
              { type: 'notify_integration', integration_id: t.ids.integration_id, message: t.name('workflow message') },
            ],
          },
        }),
        'workflow_id',
      ),
  },

  /** A run of that playbook, once the runner has parked it in its wait. */
  run_id: {
    owned: true,
    needs: ['workflow_id'],
    create: async (t) => {
      const path = `/api/v1/workflows/${t.ids.workflow_id}/runs`;
      const started = await t.call('POST', `/api/v1/workflows/${t.ids.workflow_id}/run`, {
        body: { values: { note: t.name('run input') } },
      });
      const runId = (started.body as { run_id?: string }).run_id;
      if (started.status !== 202 || !runId)
        throw new Error(`expected 202 with run_id, got ${started.status} ${started.text.slice(0, 300)}`);
      for (let tries = 0; tries < 100; tries++) {
        const res = await t.call('GET', `${path}/${runId}`);
        if ((res.body as { status?: string }).status === 'waiting') return runId;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('fixture workflow run never reached its wait');
    },
  },

  /**
   * A vessel (`/api/v1/vessels/{mmsi}`): one AIS position of an MMSI of the tenant's own (tenants
   * may share real vessels, each with its own data; here each has its own), once the tracker kept it.
   */
  mmsi: {
    owned: true,
    create: async (t) => {
      const mmsi = String(200_000_000 + Math.floor(Math.random() * 500_000_000));
      const event = await t.call('POST', '/api/v1/events', {
        body: {
          type: 'ais.position',
          location: { lat: 59.9, lon: 10.7 },
          description: t.name('ais report'),
          payload: { mmsi, sog_knots: 4 },
        },
      });
      if (event.status !== 201)
        throw new Error(`fixture AIS event not stored: ${event.status} ${event.text.slice(0, 300)}`);
      for (let tries = 0; tries < 100; tries++) {
        if ((await t.call('GET', `/api/v1/vessels/${mmsi}`)).status === 200) return mmsi;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('fixture vessel never appeared');
    },
    unknown: () => '199999999',
    sample: (owner) => (owner === 'A' ? '200000001' : '200000002'),
  },

  /** A watchlist entry: a domain made from the marker, with the marker in its label and note. */
  entry_id: {
    owned: true,
    create: async (t) =>
      created(
        await t.call('POST', '/api/v1/watchlist/entries', {
          body: {
            entity_type: 'domain',
            value: `${t.marker.toLowerCase()}.example.com`,
            label: t.name('watchlist entry'),
            note: t.name('watchlist note'),
          },
        }),
        'entry_id',
      ),
  },

  /** `/api/v1/agents/{agent_id}`: an agent, the same nine for every tenant (their switches are each tenant's own). */
  agent_id: { owned: false, create: async () => 'notifier' },

  /** `/docs/{asset}`: a file of the docs page, the same for everyone. */
  asset: { owned: false, create: async () => 'swagger-ui.css' },
};

/**
 * Properties that look like references (`*_id`, `format: uuid`) but name no tenant's resource,
 * each with the reason. They get a generated value and no cross-tenant attempt.
 */
export const NOT_REFERENCES: Readonly<Record<string, string>> = {
  definition_id:
    "A definition's id within its library (a slug such as `maritime.cable-loitering`), chosen by the client; not an id of anything else, and every tenant's seeded libraries share the same ones.",
  // Keyed by where (`route <id> <part>.<name>`): only there.
  'route infrastructure.tagLines body.line_ids':
    "Lines within the file named by the path (`0`, `2.1`: a feature's place in the file), which the path's file_id scopes; another tenant's file is the path's 404 already.",
  'route vessels.list query.mmsi':
    "A filter on the tenant's own vessels (search_vessels by MMSI), not a lookup: another tenant's MMSI finds nothing, the same empty page as an MMSI never heard; a vessel's own page (GET /api/v1/vessels/{mmsi}) is the lookup, and answers 404.",
  'route auditLogs.list query.user_id':
    "A filter on the tenant's own entries, not a lookup: the user may have been deleted since (their entries stay), so any value is taken and matches only entries of this tenant; another tenant's user id finds nothing, exactly as an unknown one.",
  'route drones.callback body.data.drone_id':
    "The dock's own name or serial for the aircraft (`DJI-M30-07`), free text it reports; not an id of anything of ours.",
  'route drones.callback body.data.dispatch_id':
    "A public route: the signature of the drone integration in the path decides the tenant before the body is read (401 otherwise), and the dispatch is then looked up in that tenant's incident only; tested in test/e2e/drones.test.ts (drones.callback) with a real dock's secret.",
};

/**
 * Ids a client makes for a new resource (retry tokens) in a request body: they name nothing of
 * another tenant (ids are per tenant), so they get a generated value and no cross-tenant attempt.
 */
export const CLIENT_CHOSEN_IDS: Readonly<Record<string, string>> = {
  event_id: 'a UUIDv7 the client makes for a new event so a retry stores it once; scoped to the caller tenant',
  batch_id:
    "a fibre unit's id of a telemetry batch, so a retry is stored once; scoped to the sensor of the path (the caller tenant's)",
};

/** The registry entry that fills a parameter: `sensor_ids` uses `sensor_id`. */
export function fixtureKindOf(name: string): string | undefined {
  if (FIXTURES[name]) return name;
  if (name.endsWith('_ids') && FIXTURES[name.slice(0, -1)]) return name.slice(0, -1);
  return undefined;
}

/** The kinds in an order where every kind comes after what it needs. */
export function creationOrder(): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (kind: string, chain: string[]) => {
    if (order.includes(kind)) return;
    const fixture = FIXTURES[kind];
    if (!fixture) throw new Error(`fixture ${chain.join(' -> ')} needs ${kind}, which has no entry in FIXTURES`);
    if (visiting.has(kind)) throw new Error(`fixtures need each other in a cycle: ${[...chain, kind].join(' -> ')}`);
    visiting.add(kind);
    for (const need of fixture.needs ?? []) visit(need, [...chain, kind]);
    visiting.delete(kind);
    order.push(kind);
  };
  for (const kind of Object.keys(FIXTURES)) visit(kind, []);
  return order;
}
