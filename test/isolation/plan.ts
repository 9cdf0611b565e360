/**
 * Plans the attempts of the isolation suite from the route table, before any data exists: for
 * every route, which parameters name a tenant's resource, and which variants to try (A's value in
 * each place where B's own would be legitimate). Values are symbolic here (owner A, B or unknown);
 * `materialize` turns a variant into a concrete request once the fixtures exist.
 *
 * Planning refuses loudly (PlanError) a route it cannot fill: a path parameter or a reference
 * without a fixture, or a body schema the generator cannot satisfy.
 */
import { sharedRequestAjv } from '../../shared/http/ajv.js';
import { ROUTES } from '../../shared/routes/index.js';
import type { HttpMethod, RouteDef } from '../../shared/routes/types.js';
import type { JsonSchema } from '../../shared/schemas/json-schema.js';
import { CLIENT_CHOSEN_IDS, FIXTURES, fixtureKindOf, NOT_REFERENCES } from './fixtures.js';
import { SchemaSampleError, sampleValue, type SampleContext } from './schema-sample.js';

export class PlanError extends Error {
  override name = 'PlanError';
}

export type Owner = 'A' | 'B' | 'unknown';
export type Place = 'path' | 'query' | 'body';

export interface RefSlot {
  place: Place;
  /** Parameter or property name, e.g. `tenant_id`, `sensor_ids`. */
  name: string;
  /** The fixture kind that fills it, e.g. `sensor_id`. */
  kind: string;
}

export interface Variant {
  /** e.g. `path user_id=A, query tenant_id=B`. */
  label: string;
  /** Owner per slot key (`place:name`); slots not named take B's value if required, else are left out. */
  owners: Readonly<Record<string, Owner>>;
  /** Whether the request names anything of tenant A. */
  namesA: boolean;
  /** Whether A's tenant id is the only thing of A it names. */
  onlyTenantOfA: boolean;
}

export interface RoutePlan {
  route: RouteDef;
  /** Every path parameter and the fixture kind that fills it. */
  pathParams: RefSlot[];
  /** Slots naming a resource owned by one tenant (path, query or body). */
  ownedSlots: RefSlot[];
  /** Cross-tenant variants (item 6): A's value where B's is legitimate. */
  crossTenant: Variant[];
  /** B's own values only (item 7): implicit tenant, and every optional reference given as B's. */
  ownTenant: Variant[];
}

export const slotKey = (s: Pick<RefSlot, 'place' | 'name'>) => `${s.place}:${s.name}`;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a property names a resource; throws for one that looks like it but has no fixture. */
export function isReference(name: string, schema: JsonSchema, where: string): boolean {
  if (name in CLIENT_CHOSEN_IDS && / body[.[]/.test(where)) return false;
  // One route's property that is a plain value there, though its name is a reference elsewhere.
  if (where in NOT_REFERENCES) return false;
  if (fixtureKindOf(name)) return true;
  if (name in NOT_REFERENCES) return false;
  const items = isObject(schema.items) ? schema.items : undefined;
  if (/_ids?$/.test(name) || schema.format === 'uuid' || items?.format === 'uuid') {
    throw new PlanError(
      `${where}: "${name}" looks like a reference to a tenant's resource, but FIXTURES in test/isolation/fixtures.ts has no entry "${name.replace(/_ids$/, '_id')}". ` +
        'Add one (with a create function using the API), or list it in NOT_REFERENCES with the reason.',
    );
  }
  return false;
}

/** Reference properties anywhere in a schema (properties, items, combinators), by name. */
function referencesIn(schema: JsonSchema | undefined, where: string, out = new Set<string>()): Set<string> {
  if (!schema) return out;
  if (isObject(schema.properties)) {
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!isObject(prop)) continue;
      if (isReference(name, prop, `${where}.${name}`)) out.add(name);
      else referencesIn(prop, `${where}.${name}`, out);
    }
  }
  if (isObject(schema.items)) referencesIn(schema.items, `${where}[]`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) if (isObject(b)) referencesIn(b, where, out);
  }
  return out;
}

function queryReferences(schema: JsonSchema | undefined, where: string): string[] {
  if (!schema || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([name, prop]) => isObject(prop) && isReference(name, prop, `${where}.${name}`))
    .map(([n]) => n);
}

export function pathParamsOf(route: RouteDef): string[] {
  return [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
}

function describeOwners(owners: Record<string, Owner>): string {
  return Object.entries(owners)
    .map(([k, o]) => `${k.replace(':', ' ')}=${o}`)
    .join(', ');
}

function variant(owners: Record<string, Owner>, label?: string): Variant {
  const aSlots = Object.entries(owners).filter(([, o]) => o === 'A');
  return {
    label: label ?? describeOwners(owners),
    owners,
    namesA: aSlots.length > 0,
    onlyTenantOfA: aSlots.length > 0 && aSlots.every(([k]) => k.endsWith(':tenant_id')),
  };
}

export interface PlanOptions {
  /**
   * Whether the dry run checks each variant's request against the route's schemas (Ajv, compiled
   * for the route). On by default; a group's suite (suite.ts) checks its own routes only, as
   * coverage.test.ts checks every route of the table.
   */
  checkSchemas?: boolean;
}

export function planRoute(route: RouteDef, options: PlanOptions = {}): RoutePlan {
  const pathParams: RefSlot[] = pathParamsOf(route).map((name) => {
    const kind = fixtureKindOf(name);
    if (!kind) {
      throw new PlanError(
        `route ${route.id} (${route.method} ${route.path}): no fixture for the path parameter {${name}}. ` +
          `Add an entry "${name}" to FIXTURES in test/isolation/fixtures.ts with a create function using the API.`,
      );
    }
    return { place: 'path', name, kind };
  });
  const where = `route ${route.id}`;
  const querySlots: RefSlot[] = queryReferences(route.request?.query, `${where} query`).map((name) => ({
    place: 'query',
    name,
    kind: fixtureKindOf(name)!,
  }));
  const bodySlots: RefSlot[] = [...referencesIn(route.request?.body, `${where} body`)].map((name) => ({
    place: 'body',
    name,
    kind: fixtureKindOf(name)!,
  }));
  const ownedSlots = [...pathParams, ...querySlots, ...bodySlots].filter((s) => FIXTURES[s.kind]!.owned);

  const crossTenant: Variant[] = [];
  if (ownedSlots.length === 0) {
    crossTenant.push(variant({}, 'own scope (the route names no tenant resource)'));
  } else {
    for (const slot of ownedSlots) crossTenant.push(variant({ [slotKey(slot)]: 'A' }));
    // A's object with B's own tenant named explicitly: the object lookup must be scoped too.
    const tenantSlots = ownedSlots.filter((s) => s.name === 'tenant_id' && s.place !== 'path');
    for (const tenantSlot of tenantSlots) {
      for (const slot of ownedSlots.filter((s) => s.name !== 'tenant_id')) {
        crossTenant.push(variant({ [slotKey(slot)]: 'A', [slotKey(tenantSlot)]: 'B' }));
      }
    }
    if (ownedSlots.length > 1) {
      crossTenant.push(variant(Object.fromEntries(ownedSlots.map((s) => [slotKey(s), 'A']))));
    }
  }

  const ownTenant: Variant[] = [variant({}, 'own ids, tenant implicit')];
  const optionalOwn = [...querySlots, ...bodySlots];
  if (optionalOwn.length > 0) {
    ownTenant.push(
      variant(
        Object.fromEntries(optionalOwn.map((s) => [slotKey(s), 'B'])),
        'own ids, every reference given explicitly',
      ),
    );
  }

  const plan: RoutePlan = { route, pathParams, ownedSlots, crossTenant, ownTenant };
  // Dry run: every variant must produce a request the route's own schemas accept.
  const ids: TenantIds = { A: {}, B: {} };
  for (const kind of Object.keys(FIXTURES)) {
    ids.A[kind] = FIXTURES[kind]!.sample?.('A') ?? '00000000-0000-4000-8000-00000000000a';
    ids.B[kind] = FIXTURES[kind]!.sample?.('B') ?? '00000000-0000-4000-8000-00000000000b';
  }
  for (const v of [...crossTenant, ...ownTenant]) {
    const req = materialize(plan, v, ids, () => '00000000-0000-4000-8000-000000000000');
    if (options.checkSchemas !== false) assertValid(route, req, v);
  }
  return plan;
}

export interface TenantIds {
  A: Record<string, string>;
  B: Record<string, string>;
}

export interface ConcreteRequest {
  method: HttpMethod;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  /** The route takes a multipart upload in this form field (instead of a JSON body). */
  uploadField?: string;
}

/** A concrete request for a variant: owners resolved to ids; `unknownId(kind)` for owner `unknown`. */
export function materialize(
  plan: RoutePlan,
  v: Variant,
  ids: TenantIds,
  unknownId: (kind: string) => string,
): ConcreteRequest {
  const { route } = plan;
  const valueOf = (kind: string, owner: Owner): string => {
    if (!FIXTURES[kind]!.owned) return ids.B[kind]!;
    if (owner === 'unknown') return unknownId(kind);
    const id = ids[owner][kind];
    if (id === undefined) throw new PlanError(`no ${owner} fixture of kind ${kind}`);
    return id;
  };
  const ownerOf = (place: Place, name: string, required: boolean): Owner | undefined =>
    v.owners[`${place}:${name}`] ?? (required ? 'B' : undefined);

  let path = route.path;
  for (const p of plan.pathParams) {
    const value = valueOf(p.kind, ownerOf('path', p.name, true)!);
    path = path.replace(new RegExp(`\\{${p.name}\\+?\\}`), encodeURIComponent(value));
  }

  const refContext = (place: Place): SampleContext => ({
    isRef: (name, schema, where) => isReference(name, schema, where),
    ref: (name, schema, required) => {
      const owner = ownerOf(place, name, required);
      if (owner === undefined) return undefined;
      const value = valueOf(fixtureKindOf(name)!, owner);
      return schema.type === 'array' || name.endsWith('_ids') ? [value] : value;
    },
    wanted: (name) => v.owners[`${place}:${name}`] !== undefined,
  });

  const query: Record<string, string> = {};
  const querySchema = route.request?.query;
  if (querySchema && isObject(querySchema.properties)) {
    // A query that needs one of several parameters (`anyOf` or `oneOf` of `required`) gets its first branch's.
    const branches = querySchema.anyOf ?? querySchema.oneOf;
    const firstBranch =
      Array.isArray(branches) && isObject(branches[0]) ? ((branches[0].required as string[] | undefined) ?? []) : [];
    const required = new Set([...((querySchema.required as string[] | undefined) ?? []), ...firstBranch]);
    const ctx = refContext('query');
    for (const [name, prop] of Object.entries(querySchema.properties)) {
      if (!isObject(prop)) continue;
      const at = `route ${route.id} query.${name}`;
      const value = ctx.isRef(name, prop, at)
        ? ctx.ref(name, prop, required.has(name), at)
        : required.has(name)
          ? sampleValue(prop, ctx, at)
          : undefined;
      if (value !== undefined) query[name] = Array.isArray(value) ? value.join(',') : String(value);
    }
  }

  let body: unknown;
  if (route.request?.body) {
    try {
      body = sampleValue(route.request.body, refContext('body'), `route ${route.id} body`);
    } catch (err) {
      if (err instanceof SchemaSampleError) throw new PlanError(err.message);
      throw err;
    }
  }
  return {
    method: route.method,
    path,
    query,
    ...(body !== undefined ? { body } : {}),
    ...(route.upload ? { uploadField: route.upload.field } : {}),
  };
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
const validators = new Map<string, Validate>();
/** The request passes the route's own schemas, as the service compiles them. */
function assertValid(route: RouteDef, req: ConcreteRequest, v: Variant): void {
  const check = (part: string, schema: JsonSchema | undefined, data: unknown, coerce: boolean) => {
    if (!schema) return;
    const key = `${route.id}:${part}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = sharedRequestAjv(coerce ? 'array' : false).compile(schema) as Validate;
      validators.set(key, validate);
    }
    if (!validate(structuredClone(data))) {
      throw new PlanError(
        `route ${route.id}: the generated ${part} of variant "${v.label}" fails the route's schema: ${JSON.stringify(validate.errors)} (value ${JSON.stringify(data)})`,
      );
    }
  };
  const params = Object.fromEntries(
    pathParamsOf(route).map((name) => {
      const template = route.path.split('/');
      const actual = req.path.split('/');
      return [name, decodeURIComponent(actual[template.indexOf(`{${name}}`)] ?? '')];
    }),
  );
  check('path', route.request?.path, params, true);
  check('query', route.request?.query, req.query, true);
  check('body', route.request?.body, req.body, false);
}

/** Every HTTP method the suite tries; those a path does not declare are method swaps. */
export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface SwapPlan {
  /** The path template, e.g. `/api/v1/users/{user_id}`. */
  path: string;
  /** Routes declared on it (for attribution). */
  routes: RouteDef[];
  /** Methods it does not declare. */
  methods: HttpMethod[];
  pathParams: RefSlot[];
}

/** One entry per path of the route table, with the methods it does not have. */
export function planSwaps(routes: readonly RouteDef[], plans: ReadonlyMap<string, RoutePlan>): SwapPlan[] {
  const byPath = new Map<string, RouteDef[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const out: SwapPlan[] = [];
  for (const [path, rs] of byPath) {
    const plan = rs.map((r) => plans.get(r.id)).find((p) => p !== undefined);
    if (!plan) continue; // its routes failed planning; reported there
    const declared = new Set(rs.map((r) => r.method));
    out.push({ path, routes: rs, methods: METHODS.filter((m) => !declared.has(m)), pathParams: plan.pathParams });
  }
  return out;
}

export interface Plans {
  routes: Map<string, RoutePlan>;
  errors: Map<string, string>;
  swaps: SwapPlan[];
}

/**
 * Plans every route of the table; a route that cannot be planned is recorded, not skipped.
 * `checkSchemas` says for which routes the dry run checks the requests against their schemas (all by default).
 */
export function planAll(
  routes: readonly RouteDef[] = ROUTES,
  checkSchemas: (route: RouteDef) => boolean = () => true,
): Plans {
  const plans = new Map<string, RoutePlan>();
  const errors = new Map<string, string>();
  for (const route of routes) {
    try {
      plans.set(route.id, planRoute(route, { checkSchemas: checkSchemas(route) }));
    } catch (err) {
      if (!(err instanceof PlanError || err instanceof SchemaSampleError)) throw err;
      errors.set(route.id, err.message);
    }
  }
  return { routes: plans, errors, swaps: planSwaps(routes, plans) };
}
