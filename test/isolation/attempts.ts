/**
 * Attempts: concrete requests as one principal of B, each with the answer the contract demands,
 * and the runner that makes them and checks every answer.
 *
 * What the contract demands, in the order the service decides it:
 *   public route            -> not 5xx (and, like every answer, nothing of A)
 *   invalid credential      -> 401
 *   role below the route's  -> 403; an API key on a bearer-only route -> 403
 *   names A's tenant/object -> 404, the very body an unknown id of that kind gets
 *                              (for A's tenant: {"detail":"Tenant not found"})
 *   otherwise (B's own)     -> not 5xx and not 401
 *   a method the path lacks -> 404 or 405, never 2xx
 * and for every attempt: none of A's sensitive strings (marker, ids, emails, keys, tokens) in the
 * body or a header unless the request itself carried it, and A's items unchanged after every write.
 *
 * Concurrency: attempts run a few at a time (ISOLATION_CONCURRENCY, default 6). That is sound for
 * the "A unchanged" check because nothing may ever change A: no attempt acts as A, so the guard
 * compares each snapshot with the last one seen and any difference at any time is a leak. Which
 * attempt made it is read from the change itself: every write puts an audit entry carrying the
 * request id (the X-Request-Id of the answer) in the same transaction. A change without one is
 * pinned on the attempt whose check saw it and the attempts in flight then; rerun with
 * ISOLATION_CONCURRENCY=1 to pin it exactly. Each batch (one test) also checks before and after,
 * so a change made by a GET, or between checks, is never lost. The check after a write reads the
 * partitions back only when the proxy in front of DynamoDB Local saw a write to them (snapshot.ts);
 * the checks before and after a batch always read them.
 */
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import { ROLES, type Role, type RouteDef } from '../../shared/routes/types.js';
import { call, type ApiResponse, type CallOptions } from '../support/api.js';
import { FIXTURES } from './fixtures.js';
import { materialize, type ConcreteRequest, type RoutePlan, type SwapPlan, type Variant } from './plan.js';
import type { Principal, PrincipalSpec } from './principals.js';
import type { TenantGuard } from './snapshot.js';
import { credentials, type World } from './world.js';

export type Expectation =
  | { kind: 'status'; status: 401 | 403; why: string }
  | { kind: 'unknown-id'; tenantBody: boolean }
  | { kind: 'method-swap' }
  | { kind: 'public' }
  | { kind: 'own' };

export interface Attempt {
  suite: 'cross-tenant' | 'method swap' | 'function-level';
  /** The route id, or `<path>` for a method swap. */
  target: string;
  label: string;
  principal: Principal;
  request: ConcreteRequest;
  expect: Expectation;
  /** The same request with each of A's values replaced by an unknown id of its kind. */
  twin?: ConcreteRequest;
}

export const TENANT_NOT_FOUND = { detail: 'Tenant not found' };

const rank = (role: Role) => ROLES.indexOf(role);

export function expectationFor(
  route: RouteDef,
  p: PrincipalSpec,
  v: Pick<Variant, 'namesA' | 'onlyTenantOfA'>,
): Expectation {
  if (route.access === 'public') return { kind: 'public' };
  if (!p.valid) return { kind: 'status', status: 401, why: 'the credential is invalid' };
  if (rank(p.role!) < rank(route.access))
    return { kind: 'status', status: 403, why: `${p.role} is below ${route.access}` };
  if (route.bearerOnly && p.via === 'api_key')
    return { kind: 'status', status: 403, why: 'an API key on a bearer-only route' };
  if (v.namesA) return { kind: 'unknown-id', tenantBody: v.onlyTenantOfA };
  return { kind: 'own' };
}

const ids = (world: World) => ({ A: world.A.ids, B: world.B.ids });
const unknownId = (kind: string) => FIXTURES[kind]?.unknown?.() ?? randomUUID();

function twinOf(plan: RoutePlan, v: Variant, world: World): ConcreteRequest {
  const owners = Object.fromEntries(Object.entries(v.owners).map(([k, o]) => [k, o === 'A' ? 'unknown' : o]));
  return materialize(plan, { ...v, owners }, ids(world), unknownId);
}

/** Item 6: A's ids and tenant in every place, as every principal of B. */
export function crossTenantAttempts(plan: RoutePlan, world: World): Attempt[] {
  return plan.crossTenant.flatMap((v) =>
    world.principals.map((principal) => {
      const expect = expectationFor(plan.route, principal, v);
      return {
        suite: 'cross-tenant' as const,
        target: plan.route.id,
        label: v.label,
        principal,
        request: materialize(plan, v, ids(world), unknownId),
        expect,
        ...(expect.kind === 'unknown-id' ? { twin: twinOf(plan, v, world) } : {}),
      };
    }),
  );
}

/** Item 7: B's own ids, as every valid principal of B the route must refuse (403). */
export function functionLevelAttempts(plan: RoutePlan, world: World): Attempt[] {
  const below = world.principals.filter(
    (p) => p.valid && expectationFor(plan.route, p, { namesA: false, onlyTenantOfA: false }).kind === 'status',
  );
  return plan.ownTenant.flatMap((v) =>
    below.map((principal) => ({
      suite: 'function-level' as const,
      target: plan.route.id,
      label: v.label,
      principal,
      request: materialize(plan, v, ids(world), unknownId),
      expect: expectationFor(plan.route, principal, v),
    })),
  );
}

/** Principals of B a route must refuse with 403 on B's own data, by name (known before seeding). */
export function refusedRoles(route: RouteDef, specs: readonly PrincipalSpec[]): PrincipalSpec[] {
  return specs.filter((p) => expectationFor(route, p, { namesA: false, onlyTenantOfA: false }).kind === 'status');
}

/** Every method a path does not declare, with A's ids in the path, query and body. */
export function swapAttempts(swap: SwapPlan, world: World): Attempt[] {
  let path = swap.path;
  for (const p of swap.pathParams) {
    path = path.replace(
      new RegExp(`\\{${p.name}\\+?\\}`),
      encodeURIComponent(world.A.ids[p.kind] ?? world.B.ids[p.kind]!),
    );
  }
  return swap.methods.flatMap((method) =>
    world.principals.map((principal) => ({
      suite: 'method swap' as const,
      target: swap.path,
      label: `${method} instead of ${swap.routes.map((r) => r.method).join('/')}`,
      principal,
      request: {
        method,
        path,
        query: { tenant_id: world.A.tenantId },
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: { tenant_id: world.A.tenantId } }),
      },
      expect: { kind: 'method-swap' as const },
    })),
  );
}

export const stats = {
  attempts: 0,
  /** Unknown-id requests made to compare 404 bodies with; not counted as attempts. */
  twins: 0,
  perTarget: new Map<string, number>(),
  leaks: [] as string[],
};

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Ids shown by name in messages, e.g. `<A.user_id>`. */
function labeller(world: World): (s: string) => string {
  const names = new Map<string, string>();
  for (const t of [world.A, world.B]) {
    names.set(t.tenantId, `<${t.label}.tenant_id>`);
    for (const [kind, id] of Object.entries(t.ids))
      if (kind !== 'tenant_id' && FIXTURES[kind]?.owned) names.set(id, `<${t.label}.${kind}>`);
    for (const role of ['admin', 'operator', 'viewer'] as const) names.set(t[role].userId, `<${t.label}.${role}>`);
    for (const [purpose, key] of Object.entries(t.apiKeys)) names.set(key.keyId, `<${t.label}.key ${purpose}>`);
  }
  return (s) => {
    let out = s;
    for (const [id, name] of names) out = out.split(id).join(name);
    return out;
  };
}

function describeRequest(r: ConcreteRequest): string {
  const qs = new URLSearchParams(r.query).toString();
  return `${r.method} ${r.path}${qs ? `?${qs}` : ''}${r.body !== undefined ? ` body=${JSON.stringify(r.body)}` : ''}`;
}

function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'status':
      return `${e.status} (${e.why})`;
    case 'unknown-id':
      return e.tenantBody
        ? '404 {"detail":"Tenant not found"}, as for an unknown tenant'
        : '404 with the same body as an unknown id';
    case 'method-swap':
      return '404 or 405';
    case 'public':
      return 'not 5xx (public route)';
    case 'own':
      return "not 5xx and not 401 (B's own scope)";
  }
}

const excerpt = (res: ApiResponse) => `${res.status} ${res.text.slice(0, 240)}`;

/** Sensitive strings of A in an answer that the request did not carry itself. */
function leaksIn(res: ApiResponse, sensitive: ReadonlySet<string>, request: string): string[] {
  const headers: string[] = [];
  res.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  const haystack = `${res.text}\n${headers.join('\n')}`.toLowerCase();
  return [...sensitive].filter((s) => haystack.includes(s) && !request.includes(s));
}

function statusProblem(e: Expectation, res: ApiResponse): string | null {
  const detailIsString = typeof (res.body as { detail?: unknown } | undefined)?.detail === 'string';
  switch (e.kind) {
    case 'status':
      if (res.status !== e.status) return `got ${excerpt(res)}`;
      return detailIsString ? null : `the ${e.status} body is not {"detail": "..."}: ${excerpt(res)}`;
    case 'method-swap':
      return res.status === 404 || res.status === 405 ? null : `got ${excerpt(res)}`;
    case 'public':
      return res.status < 500 ? null : `got ${excerpt(res)}`;
    case 'own':
      return res.status < 500 && res.status !== 401 ? null : `got ${excerpt(res)}`;
    case 'unknown-id':
      return res.status === 404 ? null : `got ${excerpt(res)}`;
  }
}

const BOUNDARY = 'isolation-boundary';

/** A small, valid upload: a route that takes files gets a real form, so only the ids decide. */
function multipartFile(field: string): CallOptions {
  const file = JSON.stringify({
    type: 'Feature',
    properties: { name: 'probe' },
    geometry: { type: 'Point', coordinates: [10.7, 59.9] },
  });
  return {
    rawBody:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="site.geojson"\r\n` +
      `Content-Type: application/geo+json\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

async function send(r: ConcreteRequest, p: Principal): Promise<ApiResponse> {
  const credential = credentials(p);
  const payload = r.uploadField ? multipartFile(r.uploadField) : r.body !== undefined ? { body: r.body } : {};
  const opts: CallOptions = {
    ...credential,
    query: r.query,
    ...payload,
    headers: { ...credential.headers, ...payload.headers },
  };
  return call(r.method, r.path, opts);
}

export interface RunOptions {
  world: World;
  /** The tenant no attempt of this batch may change. */
  guard: TenantGuard;
  concurrency?: number;
}

/** Makes the attempts and returns one message per problem (empty: all as the contract says). */
export async function runAttempts(attempts: readonly Attempt[], opts: RunOptions): Promise<string[]> {
  const { world, guard } = opts;
  const concurrency = opts.concurrency ?? Number(process.env.ISOLATION_CONCURRENCY ?? 6);
  const label = labeller(world);
  const problems: string[] = [];
  const inFlight = new Set<Attempt>();
  const byRequestId = new Map<string, Attempt>();
  const leak = (msg: string) => {
    stats.leaks.push(msg);
    problems.push(`LEAK ${msg}`);
  };
  const where = (a: Attempt) =>
    label(`[${a.suite}] ${a.target} | ${a.principal.name} | ${a.label} | ${describeRequest(a.request)}`);

  // A change to A is a leak; a change to B (function-level batches) is a privilege escalation.
  const report = guard.tenantId === world.A.tenantId ? leak : (msg: string) => void problems.push(`CHANGED ${msg}`);

  const before = await guard.check({ full: true });
  if (before.length > 0) report(label(`tenant ${guard.label} changed between batches: ${before.join('; ')}`));

  /**
   * Who made a change: the attempt whose request id the change carries (every write puts an audit
   * entry with its request id in the same transaction), else the attempt that saw it or one in
   * flight with it.
   */
  const culprit = (changes: string[], suspects: Attempt[]): string => {
    const text = changes.join('\n');
    const named = [...byRequestId].filter(([id]) => text.includes(id)).map(([, x]) => x);
    if (named.length > 0) return `made by ${named.map(where).join(' || ')}`;
    const list = [...new Set(suspects)].map(where);
    return list.length > 0 ? `made by one of: ${list.join(' || ')}` : 'made by an attempt of this batch';
  };
  /** Changes seen after writes; their culprits are named once every answer (request id) is in. */
  const changed: { changes: string[]; suspects: Attempt[] }[] = [];

  const one = async (a: Attempt) => {
    const res = await send(a.request, a.principal);
    const requestId = res.headers.get('x-request-id');
    if (requestId) byRequestId.set(requestId, a);
    stats.attempts += 1;
    stats.perTarget.set(a.target, (stats.perTarget.get(a.target) ?? 0) + 1);
    const requestText = JSON.stringify([a.request, a.principal.token, a.principal.apiKey]).toLowerCase();

    const leaked = leaksIn(res, world.A.sensitive, requestText);
    if (leaked.length > 0)
      leak(`${where(a)} | the answer shows A's ${label(leaked.join(', '))}: ${label(excerpt(res))}`);

    const problem = statusProblem(a.expect, res);
    if (problem) {
      const msg = `${where(a)} | expected ${describeExpectation(a.expect)}, ${label(problem)}`;
      // A success where the contract demands a refusal of something of A is a leak, not a mere status.
      if (res.status < 300 && a.expect.kind === 'unknown-id') leak(msg);
      else problems.push(msg);
    } else if (a.expect.kind === 'unknown-id' && a.twin) {
      const twin = await send(a.twin, a.principal);
      stats.twins += 1;
      const twinLeaks = leaksIn(twin, world.A.sensitive, JSON.stringify(a.twin).toLowerCase());
      if (twinLeaks.length > 0)
        leak(`${where(a)} | the unknown-id twin's answer shows A's ${label(twinLeaks.join(', '))}`);
      if (twin.status !== 404) {
        problems.push(
          `${where(a)} | the same request with an unknown id (${label(describeRequest(a.twin))}) got ${excerpt(twin)}, not 404`,
        );
      } else if (!isDeepStrictEqual(res.body, twin.body)) {
        problems.push(
          `${where(a)} | A's id is answered ${label(res.text)}, an unknown id ${twin.text}: they must be the same`,
        );
      } else if (a.expect.tenantBody && !isDeepStrictEqual(res.body, TENANT_NOT_FOUND)) {
        problems.push(`${where(a)} | expected ${JSON.stringify(TENANT_NOT_FOUND)}, got ${label(res.text)}`);
      }
    }

    if (WRITE.has(a.request.method)) {
      const changes = await guard.check();
      if (changes.length > 0) changed.push({ changes, suspects: [a, ...inFlight] });
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < attempts.length) {
      const a = attempts[next++]!;
      inFlight.add(a);
      try {
        await one(a);
      } catch (err) {
        problems.push(`${where(a)} | the attempt itself failed: ${(err as Error).stack ?? String(err)}`);
      } finally {
        inFlight.delete(a);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));

  const after = await guard.check({ full: true });
  if (after.length > 0) changed.push({ changes: after, suspects: [] });
  for (const { changes, suspects } of changed)
    report(`tenant ${guard.label} changed: ${label(changes.join('; '))} | ${culprit(changes, suspects)}`);
  return problems;
}
