/**
 * The tenant-isolation suite (issue 3, items 6 and 7), generated from the route table: a route
 * added to ROUTES is attacked the day it is added, and a route the suite cannot fill (a path
 * parameter or reference without a fixture) fails the build.
 *
 * One group of routes per test file (groups.ts; the files are test/isolation/routes-<group>.test.ts),
 * so the groups run in parallel. Each file seeds its own two tenants, A and B, through the portal;
 * each gets an OPERATOR, a VIEWER and one resource of every kind in the fixture registry
 * (fixtures.ts). Then, as every principal of B (each role's token, API keys, and ten kinds of
 * invalid credential), for every route of the group:
 *   - cross-tenant: A's id in each path parameter, A's tenant and A's ids in query and body,
 *     alone and together, with a minimal valid body generated from the route's schema;
 *   - method swaps: every method a path does not declare;
 *   - function-level: B's own ids as every role below the route's least role (403, B unchanged).
 * Each answer is checked for its status, for any of A's marker strings and ids, and after each
 * write, A's items in the table (see attempts.ts for the rules and the concurrency argument).
 * coverage.test.ts checks that the groups together cover every route and every path's swaps.
 *
 * Top-level blocks are named `isolation: ...`: `describe('<route id>'` is the per-route tests'.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes/index.js';
import { call, login } from '../support/api.js';
import { notificationsSettled } from '../support/notifications.js';
import { deliveriesSettled } from '../support/webhooks.js';
import {
  crossTenantAttempts,
  functionLevelAttempts,
  refusedRoles,
  runAttempts,
  stats,
  swapAttempts,
} from './attempts.js';
import { closeSink, FIXTURES } from './fixtures.js';
import { inGroup, plannedAttempts, swapInGroup, type IsolationGroup } from './groups.js';
import { planAll } from './plan.js';
import { ALLOWED_IP, INVALID_PRINCIPAL_NAMES, OTHER_IP, VALID_PRINCIPALS } from './principals.js';
import { itemSizeCheckOn } from '../support/item-size-check.js';
import { diffSnapshots, prefixSnapshot, TenantGuard, type Snapshot } from './snapshot.js';
import { credentials, seedWorld, type World } from './world.js';

const BATCH_TIMEOUT = 120_000;
/** A's partitions are read back by scanning the table, which other tests of a full run have filled. */
const SNAPSHOT_TIMEOUT = 120_000;

/** Defines the whole suite for the routes of one group; called once, by that group's test file. */
export function isolationSuite(group: IsolationGroup): void {
  // The swaps are planned over the whole table: a path's declared methods may span groups. The
  // dry run checks the group's own routes against their schemas (coverage.test.ts checks them all):
  // planning with every route's schemas compiled took 0.53 CPU s a file, with the group's 0.21.
  const plans = planAll(ROUTES, inGroup(group));
  const routes = ROUTES.filter(inGroup(group));
  const swaps = plans.swaps.filter((s) => s.methods.length > 0).filter(swapInGroup(group));

  let world: World;
  let guardA: TenantGuard;
  let guardB: TenantGuard;
  let startOfA: Snapshot;
  /** The guard's positive control (beforeAll): its check with nothing written, and after a write of A's. */
  let control: { quiet: string[]; quietReadNothing: boolean; status: number; requestId: string; afterWrite: string[] };

  beforeAll(async () => {
    world = await seedWorld();
    // A confirmed incident is notified in the background (minted, then sent): let that finish
    // before A's items are snapshotted, or its last step reads as a change.
    await Promise.all([world.A, world.B].map((t) => notificationsSettled(t.tenantId, t.ids.incident_id!)));
    // Likewise every webhook delivery of the tenants' incidents (to a receiver that takes them all).
    await Promise.all([world.A, world.B].map((t) => deliveriesSettled(t.tenantId, t.ids.webhook_id!)));
    guardA = new TenantGuard('A', world.A.tenantId);
    guardB = new TenantGuard('B', world.B.tenantId);
    await Promise.all([guardA.start(), guardB.start()]);
    // The guard's positive control: nothing written, its check finds nothing (and, with the proxy
    // in front of DynamoDB Local, reads nothing); after A's admin changes an environment of A's
    // (which seals an audit entry), it finds the change. Then it starts again from there.
    const quickBefore = guardA.quickChecks;
    const quiet = await guardA.check();
    const quietReadNothing = guardA.quickChecks === quickBefore + 1;
    const path = `/api/v1/environments/${world.A.ids.environment_id}`;
    const environment = await call('GET', path, { token: world.A.admin.token });
    const description = `${String((environment.body as { description?: string }).description)} (seen by the guard)`;
    const saved = await call('PATCH', path, { token: world.A.admin.token, body: { description } });
    control = {
      quiet,
      quietReadNothing,
      status: saved.status,
      requestId: saved.headers.get('x-request-id') ?? '',
      afterWrite: await guardA.check(),
    };
    await guardA.start();
    startOfA = await prefixSnapshot(world.A.tenantId);
  }, 180_000);

  afterAll(async () => {
    await closeSink();
    const covered = routes.filter((r) => (stats.perTarget.get(r.id) ?? 0) > 0).length;
    // The figures of the run, beside its logs (a leak fails a test anyway, loudly).
    const report = resolve(`.test-logs/isolation/${group}.txt`);
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(
      report,
      `isolation (${group}): ${stats.attempts} attempts over ${covered} routes, ${stats.leaks.length} leaks\n` +
        `isolation (${group}): plus ${stats.twins} unknown-id requests to compare 404 bodies with\n` +
        `isolation (${group}): guard checks that read the partitions back: ${guardA.fullReads + guardB.fullReads}; ` +
        `that the proxy answered (no write to them since): ${guardA.quickChecks + guardB.quickChecks}\n`,
    );
  });

  /** The plan of a route; a route that could not be planned fails here with the reason. */
  function planOf(routeId: string) {
    const plan = plans.routes.get(routeId);
    if (!plan) throw new Error(plans.errors.get(routeId) ?? `route ${routeId} was not planned`);
    return plan;
  }

  describe(`isolation (${group}): seeded tenants and principals`, () => {
    it('A and B each have their users and one resource of every fixture kind', () => {
      for (const t of [world.A, world.B]) {
        expect(Object.keys(t.ids).sort()).toEqual(Object.keys(FIXTURES).sort());
        expect(new Set([t.admin.userId, t.operator.userId, t.viewer.userId, t.ids.user_id]).size).toBe(4);
      }
      for (const [kind, fixture] of Object.entries(FIXTURES)) {
        if (fixture.owned) expect(world.A.ids[kind], kind).not.toBe(world.B.ids[kind]);
      }
    });

    it("the guard finds a write to A's partitions, and with none reads nothing (positive control)", () => {
      expect(control.quiet).toEqual([]);
      // The proxy answers when the run's item-size check puts it in front of DynamoDB Local (the default).
      expect(control.quietReadNothing).toBe(itemSizeCheckOn());
      expect(control.status).toBe(200);
      expect(control.requestId).not.toBe('');
      expect(control.afterWrite.join('\n')).toContain(control.requestId);
    });

    it("the leak detector sees A's data in A's own answers (positive control)", async () => {
      const res = await call('GET', '/api/v1/users', { apiKey: world.A.apiKeys.A!.key });
      expect(res.status).toBe(200);
      const text = res.text.toLowerCase();
      expect(text).toContain(world.A.marker.toLowerCase());
      expect(text).toContain(world.A.ids.user_id!);
      expect(text).not.toContain(world.B.marker.toLowerCase());
    });

    it('every valid principal of B is accepted, as its role', async () => {
      expect(world.principals.map((p) => p.name)).toEqual([
        ...VALID_PRINCIPALS.map((p) => p.name),
        ...INVALID_PRINCIPAL_NAMES,
      ]);
      const valid = world.principals.filter((x) => x.valid);
      const seen = await Promise.all(
        valid.map(async (p) => {
          const viewerRoute = await call('GET', '/api/v1/users', credentials(p));
          const adminRoute = await call('GET', '/api/v1/portal/api-keys', credentials(p));
          return [
            p.name,
            {
              users: viewerRoute.status,
              ownTenant: viewerRoute.text.includes(world.B.marker),
              apiKeys: adminRoute.status,
            },
          ];
        }),
      );
      expect(Object.fromEntries(seen)).toEqual(
        Object.fromEntries(
          valid.map((p) => [p.name, { users: 200, ownTenant: true, apiKeys: p.role === 'TENANT_ADMIN' ? 200 : 403 }]),
        ),
      );
    });

    it('every invalid principal is refused with 401, each for its one defect only', async () => {
      const invalid = world.principals.filter((x) => !x.valid);
      const statuses = await Promise.all(
        invalid.map(async (p) => [p.name, (await call('GET', '/api/v1/users', credentials(p))).status]),
      );
      expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(invalid.map((p) => [p.name, 401])));
      // The forged tokens copy a real B ID token; its kid is the one the JWKS publishes, with the
      // modulus of cognito-local's key; the same claims, validly signed and unexpired, are accepted.
      expect(world.forgery.jwksKids).toContain(world.forgery.tokenKid);
      expect(world.forgery.jwksModulusMatches).toBe(true);
      expect(world.forgery.realClaims['custom:tenant_id']).toBe(world.B.tenantId);
      expect((await call('GET', '/api/v1/users', { token: world.forgery.freshTwin })).status).toBe(200);
      // The allowlisted key works from its address only.
      const allowlisted = world.principals.find((p) => p.name === 'invalid: allowlisted api key from another address')!;
      expect(allowlisted.headers?.['x-forwarded-for']).toBe(OTHER_IP);
      expect(
        (
          await call('GET', '/api/v1/users', {
            apiKey: allowlisted.apiKey!,
            headers: { 'x-forwarded-for': ALLOWED_IP },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe(`isolation (${group}): cross-tenant attempts as every principal of B`, () => {
    for (const route of routes) {
      it(
        `${route.id} (${route.method} ${route.path}): A's ids and tenant in path, query and body`,
        async () => {
          const attempts = crossTenantAttempts(planOf(route.id), world);
          expect(attempts.length).toBeGreaterThan(0);
          const problems = await runAttempts(attempts, { world, guard: guardA });
          expect(problems).toEqual([]);
        },
        BATCH_TIMEOUT,
      );
    }

    for (const swap of swaps) {
      it(
        `method swaps on ${swap.path}: ${swap.methods.join(', ')}`,
        async () => {
          const problems = await runAttempts(swapAttempts(swap, world), { world, guard: guardA });
          expect(problems).toEqual([]);
        },
        BATCH_TIMEOUT,
      );
    }

    it(
      'A is unchanged in every partition, and its users and key still work',
      async () => {
        expect(diffSnapshots(startOfA, await prefixSnapshot(world.A.tenantId))).toEqual([]);
        expect(await guardA.unchangedSinceStart()).toEqual([]);
        for (const { email, password } of world.A.logins) {
          const res = await call('POST', '/api/v1/portal/login', { body: { email, password } });
          expect(res.status, `login of ${email}`).toBe(200);
        }
        const res = await call('GET', '/api/v1/users', { apiKey: world.A.apiKeys.A!.key });
        expect(res.status).toBe(200);
        expect((res.body as { user_id: string }[]).map((u) => u.user_id)).toEqual(
          expect.arrayContaining([
            world.A.admin.userId,
            world.A.operator.userId,
            world.A.viewer.userId,
            world.A.ids.user_id,
          ]),
        );
      },
      SNAPSHOT_TIMEOUT,
    );
  });

  describe(`isolation (${group}): function-level authorization`, () => {
    // B's own legitimate writes in the cross-tenant section (routes that name no tenant resource,
    // such as rotating B's public reporting key) are done by now: from here B must not change.
    beforeAll(() => guardB.start());

    for (const route of routes) {
      const refused = refusedRoles(route, VALID_PRINCIPALS);
      if (refused.length === 0) continue;
      it(
        `${route.id} (${route.access}${route.bearerOnly ? ', bearer only' : ''}): 403 for ${refused.map((p) => p.name).join(', ')}, B unchanged`,
        async () => {
          const attempts = functionLevelAttempts(planOf(route.id), world);
          expect(attempts.map((a) => a.principal.name)).toEqual(expect.arrayContaining(refused.map((p) => p.name)));
          const problems = await runAttempts(attempts, { world, guard: guardB });
          expect(problems).toEqual([]);
        },
        BATCH_TIMEOUT,
      );
    }

    it("B's principals still work: no refused attempt changed them", async () => {
      expect(await guardB.unchangedSinceStart()).toEqual([]);
      for (const p of world.principals.filter((x) => x.valid)) {
        expect((await call('GET', '/api/v1/users', credentials(p))).status, p.name).toBe(200);
      }
      for (const { email, password } of world.B.logins) await login(email, password);
    });
  });

  describe(`isolation (${group}): coverage`, () => {
    it('the group has routes, and each of them was planned', () => {
      expect(routes.length).toBeGreaterThan(0);
      expect(
        Object.fromEntries(routes.flatMap((r) => (plans.errors.has(r.id) ? [[r.id, plans.errors.get(r.id)]] : []))),
      ).toEqual({});
    });

    it('every route of the group produced attempts, every path its method swaps', () => {
      const without = routes.filter((r) => !(stats.perTarget.get(r.id) ?? 0)).map((r) => r.id);
      expect(without).toEqual([]);
      for (const swap of swaps) {
        expect(stats.perTarget.get(swap.path) ?? 0, swap.path).toBe(swap.methods.length * world.principals.length);
      }
    });

    it('every planned attempt was made, no leak', () => {
      // coverage.test.ts checks that the groups' planned attempts add up to the whole table's (thousands).
      expect(stats.attempts).toBe(plannedAttempts(plans, routes, swaps));
      expect(stats.leaks).toEqual([]);
    });
  });
}
