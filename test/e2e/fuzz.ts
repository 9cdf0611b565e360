/**
 * Generated hostile requests to every operation of the route table but the live stream (it
 * answers a stream, checked in its own tests) (fast-check): path values
 * that are no ids, query values that are no numbers, unknown and reserved parameter names, JSON
 * bodies of every shape (wrong types, deep nesting, long and broken text, reserved keys), bodies
 * that are no JSON, JSON nested thousands of levels deep, wrong content types, headers past the
 * server's 16 KB, and no credential, a tenant administrator's or the platform administrator's. No
 * answer may be a 5xx, every status and body must be one the operation documents in
 * `/openapi.json` (test/support/response-schemas.ts), and every error must be in the contract's
 * shapes: `{"detail": "..."}`, or for 422 `{"detail": [{loc, msg, type}]}` with `loc` starting at
 * `path`, `query`, `header` or `body`; every answer names its request id. Each file prints how
 * many requests it sent and the statuses they got.
 *
 * In two files (fuzz-1.test.ts, fuzz-2.test.ts), each the routes of some groups of
 * test/support/route-groups.ts, so they run in parallel; test/isolation/coverage.test.ts checks
 * that the two cover every group once.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes/index.js';
import type { RouteDef } from '../../shared/routes/types.js';
import { inGroup, type RouteGroup } from '../support/route-groups.js';
import { asAdmin, baseUrl, call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';
import { responseProblems } from '../support/response-schemas.js';

const RUNS_PER_ROUTE = 20;

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'Infinity',
    'NaN',
    '0x10',
    '9007199254740993',
    'null',
    'true',
    '[]',
    '{}',
    '..',
    '%00',
    '\u0000',
    '\ud800',
    '<script>',
    "' OR 1=1 --",
    '../../etc/passwd',
  ),
  fc.uuid(),
  fc.string({ minLength: 300, maxLength: 2000 }),
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'tenant_id', 'type', 'events', 'geofence'),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

/** A body shaped like the route's: its declared properties with values of any kind, some left out, some added. */
function bodyFor(route: RouteDef): fc.Arbitrary<unknown> {
  const props = Object.keys(((route.request?.body ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
  const shaped = fc.record(Object.fromEntries(props.map((p) => [p, jsonValue])), { requiredKeys: [] });
  return fc.oneof(
    shaped,
    jsonValue,
    fc
      .tuple(shaped, fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 3 }))
      .map(([a, b]) => ({ ...b, ...a })),
  );
}

interface Generated {
  path: string[];
  query: [string, string][];
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string } | { kind: 'none' };
  who: 'none' | 'tenant' | 'admin';
  /** Bytes of a padding header: past 16 KB, the request line and headers are too large (431). */
  padding: number;
}

/** JSON text nested `depth` levels deep, in arrays or objects: the service reads at most 32. */
const deepJson = fc
  .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  'text/plain',
  'text/csv',
  'application/xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
];

function requestsFor(route: RouteDef): fc.Arbitrary<Generated> {
  const params = (route.path.match(/\{[^}]+\}/g) ?? []).length;
  const declared = Object.keys(
    ((route.request?.query ?? {}) as { properties?: Record<string, unknown> }).properties ?? {},
  );
  const name = fc.oneof(
    declared.length > 0 ? fc.constantFrom(...declared) : fc.constant('limit'),
    fc.string({ maxLength: 10 }),
    fc.constantFrom('__proto__', 'constructor'),
  );
  return fc.record({
    path: fc.array(hostileText, { minLength: params, maxLength: params }),
    query: fc.array(fc.tuple(name, hostileText), { maxLength: 4 }),
    body: fc.oneof(
      bodyFor(route).map((value) => ({ kind: 'json' as const, value })),
      fc
        .tuple(fc.oneof(fc.string({ maxLength: 200 }), deepJson), fc.constantFrom(...CONTENT_TYPES))
        .map(([text, type]) => ({
          kind: 'raw' as const,
          text,
          type,
        })),
      fc.constant({ kind: 'none' as const }),
    ),
    who: fc.constantFrom('none' as const, 'tenant' as const, 'tenant' as const, 'admin' as const),
    padding: fc.oneof(
      { weight: 9, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.constantFrom(4_000, 20_000) },
    ),
  });
}

let org: RegisteredTenant;
let admin: string;

/** A path segment as a client sends it; text that is no Unicode (a lone surrogate) goes as its UTF-8 bytes, replaced. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

function contractShaped(status: number, body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const detail = (body as { detail?: unknown }).detail;
  if (status !== 422) return typeof detail === 'string' && detail.length > 0;
  return (
    Array.isArray(detail) &&
    detail.length > 0 &&
    detail.every(
      (d: { loc?: unknown; msg?: unknown; type?: unknown }) =>
        Array.isArray(d.loc) &&
        ['path', 'query', 'header', 'body'].includes(String(d.loc[0])) &&
        typeof d.msg === 'string' &&
        typeof d.type === 'string',
    )
  );
}

/** Defines the fuzzing of the routes of these groups; called once, by one test file. */
export function fuzzSuite(groups: readonly RouteGroup[]): void {
  const statuses = new Map<number, number>();
  afterAll(() => {
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.log(`fuzz (${groups.join(', ')}): ${sent} requests; statuses ${byStatus.join(', ')}`);
  });
  beforeAll(async () => {
    admin = await asAdmin();
    org = await registerTenant('Fuzz');
    // No plan rate: the fuzz should reach the handlers, not stop at 429.
    expect(
      (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { plan: 'enterprise' } })).status,
    ).toBe(200);
  });

  describe(`fuzzed requests to every operation (${groups.join(', ')})`, () => {
    const routes = ROUTES.filter((r) => !r.streaming && groups.some((g) => inGroup(g)(r)));
    it.each(routes.map((r) => [r.id, r] as const))(
      '%s: no 5xx, every error in the contract shapes',
      async (_id, route) => {
        await fc.assert(
          fc.asyncProperty(requestsFor(route), async (g) => {
            let i = 0;
            const path = route.path.replace(/\{[^}]+\}/g, () => encodeSegment(g.path[i++] ?? ''));
            const url = new URL(path, baseUrl());
            for (const [k, v] of g.query) url.searchParams.append(k, v);
            const headers: Record<string, string> = { 'x-forwarded-for': randomClientIp() };
            if (g.padding > 0) headers['x-padding'] = 'a'.repeat(g.padding);
            if (g.who === 'tenant') headers.authorization = `Bearer ${org.token}`;
            if (g.who === 'admin') headers.authorization = `Bearer ${admin}`;
            let body: string | undefined;
            if (route.method !== 'GET' && route.method !== 'DELETE') {
              if (g.body.kind === 'json') {
                body = JSON.stringify(g.body.value) ?? 'null';
                headers['content-type'] = 'application/json';
              } else if (g.body.kind === 'raw') {
                body = g.body.text;
                headers['content-type'] = g.body.type;
              }
            }
            const res = await fetch(url, { method: route.method, headers, body, redirect: 'manual' });
            const text = await res.text();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const where = `${route.method} ${url.pathname}${url.search.slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
            expect(res.status, where).toBeLessThan(500);
            expect(res.headers.get('x-request-id'), where).toBeTruthy();
            const parsed = (() => {
              try {
                return JSON.parse(text) as unknown;
              } catch {
                return undefined;
              }
            })();
            const contentType = res.headers.get('content-type') ?? '';
            expect(
              await responseProblems(baseUrl(), route.method, url.pathname, res.status, contentType, parsed),
              where,
            ).toEqual([]);
            if (res.status >= 400) expect(contractShaped(res.status, parsed), where).toBe(true);
          }),
          { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        );
      },
      120_000,
    );
  });
}
