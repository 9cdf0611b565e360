/**
 * A body built from a schema's `required` fields alone is a body the API takes: for every route
 * of the route table that takes a JSON body, and for each branch of every union (`oneOf`) in it,
 * the least body the schema allows is sent (valid values, references to the tenant's own
 * resources, nothing optional). It must be accepted (2xx) or refused with a status the route
 * documents for the state of the world (404, 409), never a 422: a body valid by the schema must
 * not be refused as invalid, unless the schema's own description states the rule that refused it
 * (PREDICTED: then the description is checked to say so).
 *
 * The world is one tenant of the isolation suite (test/isolation/world.ts: a resource of every
 * kind), and the bodies come from its sample generator (test/isolation/schema-sample.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteDef } from '../../shared/routes/index.js';
import type { JsonSchema } from '../../shared/schemas/json-schema.js';
import { fixtureKindOf } from '../isolation/fixtures.js';
import { isReference, pathParamsOf } from '../isolation/plan.js';
import { sampleValue, type SampleContext } from '../isolation/schema-sample.js';
import { seedTenant, type SeededTenant } from '../isolation/world.js';
import { asAdmin, call } from '../support/api.js';

/**
 * Routes whose schema-valid least body is refused with a 422 by a rule the schema's description
 * states: route id -> the issue types that rule answers, and its words, found in the route's
 * summary or description or the body's descriptions. Each is a rule JSON Schema cannot say: another resource's state, an
 * address that must resolve to a public host (this test's sample host resolves nowhere), the
 * present time, a language (SQL, time zones).
 */
const PREDICTED: Record<string, { types: string[]; rule: string }> = {
  'integrations.create': { types: ['url'], rule: 'must be https to a public host' },
  'webhooks.create': { types: ['url'], rule: 'Its host is resolved when saved' },
  'webhooks.update': { types: ['url'], rule: 'Its host is resolved when saved' },
  'webhooks.replayFailed': { types: ['since'], rule: 'not in the future' },
  // The fixture integration is a signed HTTP endpoint.
  'drones.dispatch': { types: ['value_error'], rule: 'A `drone` integration of the tenant' },
  // A step on the run's incident after a trigger that brings none (the first trigger branch: `event`).
  'workflows.create': { types: ['value_error'], rule: 'without one the workflow is refused' },
  'watchlist.add': { types: ['mmsi'], rule: 'vessel: nine digits' },
  // The fixture sensor is not a fibre unit.
  'sensors.telemetryIngest': { types: ['value_error'], rule: 'a fibre_optic sensor' },
  'data-lake.query': { types: ['sql_error'], rule: 'One read-only SELECT' },
  'portal.settings.update': { types: ['timezone'], rule: 'IANA time zone' },
  'tenants.config.update': { types: ['timezone'], rule: 'IANA time zone' },
};

/** Routes left out, with the reason. */
const LEFT_OUT: Record<string, string> = {
  'mcp.post': 'a JSON-RPC envelope: the MCP tests send every method (test/e2e/mcp.test.ts)',
  'incidents.voice': 'transcribes audio it fetches: a body of required fields alone names no recording there is',
};

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schema once per branch of each `oneOf` in it (the enclosing unions set to the branch that
 * holds it), or the schema itself when it has none. `at` is the path to each union.
 */
function branchVariants(schema: JsonSchema): { label: string; schema: JsonSchema }[] {
  const unions: (string | number)[][] = [];
  const walk = (s: unknown, path: (string | number)[]) => {
    if (!isObject(s)) return;
    if (Array.isArray(s.oneOf)) {
      unions.push([...path, 'oneOf']);
      s.oneOf.forEach((b, i) => walk(b, [...path, 'oneOf', i]));
    }
    if (isObject(s.properties))
      for (const [name, p] of Object.entries(s.properties)) walk(p, [...path, 'properties', name]);
    if (isObject(s.items)) walk(s.items, [...path, 'items']);
  };
  walk(schema, []);
  if (unions.length === 0) return [{ label: 'body', schema }];
  const out: { label: string; schema: JsonSchema }[] = [];
  for (const union of unions) {
    const node = union.reduce<unknown>((s, k) => (s as Record<string | number, unknown>)[k], schema) as unknown[];
    node.forEach((_branch, i) => {
      const copy = structuredClone(schema) as Record<string, unknown>;
      const target = [...union, i];
      // Each union on the way keeps only the branch the path goes through.
      let at: Record<string | number, unknown> = copy;
      const tags: string[] = [];
      for (let k = 0; k < target.length; k++) {
        const key = target[k]!;
        if (key === 'oneOf') {
          const index = target[k + 1] as number;
          const branches = at.oneOf as JsonSchema[];
          const discriminator = at.discriminator as { propertyName?: string } | undefined;
          const tag = discriminator?.propertyName;
          const chosen = branches[index]!;
          const tagValue = tag && isObject(chosen.properties) ? (chosen.properties[tag] as JsonSchema)?.const : index;
          tags.push(`${tag ?? 'oneOf'}=${String(tagValue)}`);
          at.oneOf = [chosen];
          at = chosen;
          k++;
        } else {
          at = at[key] as Record<string | number, unknown>;
        }
      }
      out.push({
        label: `${union.filter((k) => typeof k === 'string' && k !== 'properties').join('.')} ${tags.join(' ')}`,
        schema: copy,
      });
    });
  }
  return out;
}

interface Attempt {
  route: RouteDef;
  label: string;
  status: number;
  detail: unknown;
}

let tenant: SeededTenant;
let adminToken: string;
const attempts: Attempt[] = [];
const skipped: Record<string, string> = {};
/** Bodies the generator could not make: each a schema it cannot read, to be fixed. */
const unsampled: string[] = [];

/** SUPER_ADMIN routes (the tenant's plan) and the tenant's own settings go last: they change the world. */
const LAST = new Set(['portal.settings.update', 'tenants.update', 'tenants.config.update']);
const routes = [...ROUTES]
  .filter((r) => r.request?.body !== undefined)
  .sort((a, b) => Number(LAST.has(a.id)) - Number(LAST.has(b.id)));

function tokenFor(route: RouteDef): string | undefined {
  if (route.access === 'public') return undefined;
  return route.access === 'SUPER_ADMIN' ? adminToken : tenant.admin.token;
}

function pathOf(route: RouteDef): string | undefined {
  let path = route.path;
  for (const name of pathParamsOf(route)) {
    const value = name === 'tenant_id' ? tenant.tenantId : tenant.ids[fixtureKindOf(name) ?? ''];
    if (value === undefined) return undefined;
    path = path.replace(new RegExp(`\\{${name}\\+?\\}`), encodeURIComponent(value));
  }
  return path;
}

/** References to the tenant's own resources where required; nothing optional. */
const context: SampleContext = {
  isRef: (name, schema, where) => isReference(name, schema, where),
  ref: (name, schema, required) => {
    if (!required) return undefined;
    const value = name === 'tenant_id' ? tenant.tenantId : tenant.ids[fixtureKindOf(name)!];
    return schema.type === 'array' || name.endsWith('_ids') ? [value] : value;
  },
};

beforeAll(async () => {
  tenant = await seedTenant('A');
  adminToken = await asAdmin();
  for (const route of routes) {
    if (LEFT_OUT[route.id]) continue;
    const path = pathOf(route);
    if (path === undefined) {
      skipped[route.id] = `no fixture for a path parameter of ${route.path}`;
      continue;
    }
    const query: Record<string, string> = {};
    const q = route.request?.query;
    for (const name of (q?.required as string[] | undefined) ?? []) {
      const value = sampleValue({ type: 'object', properties: q!.properties, required: [name] }, context, route.id);
      query[name] = String((value as Record<string, unknown>)[name]);
    }
    for (const { label, schema } of branchVariants(route.request!.body!)) {
      let body: unknown;
      try {
        body = sampleValue(schema, context, `route ${route.id} ${label}`);
      } catch (err) {
        unsampled.push(`${route.id} [${label}]: ${(err as Error).message}`);
        continue;
      }
      const token = tokenFor(route);
      const res = await call(route.method, path, { ...(token ? { token } : {}), query, body });
      attempts.push({ route, label, status: res.status, detail: (res.body as { detail?: unknown })?.detail });
    }
  }
}, 600_000);

describe('a body of only the required fields', () => {
  it('is sent to at least 30 routes, and every branch of the integration and workflow unions', () => {
    const tried = new Set(attempts.map((a) => a.route.id));
    expect(tried.size, `left out: ${JSON.stringify(skipped)}`).toBeGreaterThanOrEqual(30);
    expect(attempts.filter((a) => a.route.id === 'integrations.create').length).toBeGreaterThanOrEqual(7 + 14);
    expect(attempts.filter((a) => a.route.id === 'workflows.create').length).toBeGreaterThanOrEqual(4 + 8);
  });

  it('can be built for every branch', () => {
    expect(unsampled).toEqual([]);
  });

  it('is accepted, or refused with a status its route documents, never as invalid', () => {
    const wrong = attempts.flatMap((a) => {
      const documented = a.status < 300 || (a.status !== 422 && a.route.errors?.includes(a.status));
      if (documented) return [];
      const predicted = PREDICTED[a.route.id];
      const issues = Array.isArray(a.detail) ? (a.detail as { type: string }[]) : [];
      if (a.status === 422 && predicted && issues.length > 0 && issues.every((i) => predicted.types.includes(i.type)))
        return [];
      return [`${a.route.id} [${a.label}]: ${a.status} ${JSON.stringify(a.detail)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('a 422 it meets is one its schema states', () => {
    for (const [id, { rule }] of Object.entries(PREDICTED)) {
      const route = routes.find((r) => r.id === id)!;
      expect(`${route.summary} ${route.description ?? ''} ${JSON.stringify(route.request?.body)}`).toContain(rule);
    }
  });
});
