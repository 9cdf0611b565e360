/**
 * The route table is the single source: every route must have a handler file exporting
 * `handler`, an OpenAPI operation, and at least one test named after its id
 * (`describe('<route id>', ...)`). The CDK side is checked in test/infra.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/openapi/document.js';
import { ROUTES } from '../../shared/routes/index.js';

const root = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('route table', () => {
  it('ids are unique, and so are method + path', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))('%s has a handler file that exports handler', async (_id, route) => {
    expect(existsSync(join(root, route.handler))).toBe(true);
    const mod = await import(join(root, route.handler));
    expect(typeof mod.handler).toBe('function');
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))(
    '%s: its handler is bound to its own route object',
    async (_id, route) => {
      // httpHandler(xRoute, ...) types the input from xRoute's schemas and validates with them:
      // bound to another route's object, a handler would check and type the wrong request.
      const source = readFileSync(join(root, route.handler), 'utf8');
      const bound = /(?:httpHandler|streamingHttpHandler)\(\s*(\w+)\s*,/.exec(source)?.[1];
      expect(bound, `${route.handler} calls httpHandler(<route object>, ...)`).toBeDefined();
      const groups = await Promise.all(
        readdirSync(join(root, 'shared/routes')).map(
          async (f) => (await import(join(root, 'shared/routes', f))) as Record<string, unknown>,
        ),
      );
      expect(groups.find((g) => bound! in g)?.[bound!], `${bound} is a route object of shared/routes`).toBe(route);
    },
  );

  it("each route's tenant source matches its schemas: a tenant_id it takes is the one the chain decides", () => {
    // A union (`oneOf`) takes it when every branch does.
    const takes = (schema: unknown): boolean => {
      const s = schema as { properties?: object; oneOf?: unknown[] } | undefined;
      if (Object.keys(s?.properties ?? {}).includes('tenant_id')) return true;
      return Array.isArray(s?.oneOf) && s.oneOf.length > 0 && s.oneOf.every(takes);
    };
    // Routes that take a tenant_id the chain does not decide, and why.
    const OWN_RULE: Record<string, string> = {
      'events.stream': 'a SUPER_ADMIN naming none watches every tenant (shared/auth/tenant.ts streamScopeOf)',
      'tenants.get': 'the path names the tenant as the resource, for SUPER_ADMIN only',
      'tenants.update': 'the path names the tenant as the resource, for SUPER_ADMIN only',
      'tenants.config.get': 'the path names the tenant as the resource, for SUPER_ADMIN only',
      'tenants.config.update': 'the path names the tenant as the resource, for SUPER_ADMIN only',
      'drones.callback':
        "public: the path names the tenant whose drone integration's secret must have signed the body (shared/domain/drones/dispatch.ts verifyCallback)",
    };
    for (const route of ROUTES) {
      const { path, query, body } = route.request ?? {};
      if (route.tenant === 'query' || route.tenant === 'path' || route.tenant === 'body') {
        expect(
          takes({ query, path, body }[route.tenant]),
          `${route.id} declares its tenant in the ${route.tenant}`,
        ).toBe(true);
      } else if (!(route.id in OWN_RULE)) {
        expect(
          [takes(path), takes(query), takes(body)],
          `${route.id} takes a tenant_id the chain does not decide`,
        ).toEqual([false, false, false]);
      }
      // A public route has no caller to decide a tenant for: it has none, or finds it in what it reads.
      if (route.access === 'public') expect(['none', 'found'], `${route.id} is public`).toContain(route.tenant);
    }
  });

  it('every route has an OpenAPI operation with its id', () => {
    const doc = buildOpenApiDocument(ROUTES, { version: '0.0.0' }) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    for (const route of ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
    }
  });

  it('every route has at least one test named after its id', () => {
    const sources = testFiles(join(root, 'test'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const untested = ROUTES.filter((r) => !sources.includes(`describe('${r.id}'`)).map((r) => r.id);
    expect(untested).toEqual([]);
  });

  it('path parameters in the path and in the schema agree', () => {
    for (const route of ROUTES) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const inSchema = Object.keys(route.request?.path?.properties ?? {}).sort();
      expect(inSchema, route.id).toEqual(inPath);
    }
  });
});
