/**
 * The isolation suite runs as one file per group of routes (groups.ts, suite.ts). Without a
 * server, from the route table and the plans: every route and every path's method swaps fall in
 * exactly one group, every group has its file, every route can be planned, and the groups'
 * attempts add up to the whole table's: thousands, as when the suite was one file. Likewise the
 * fuzzing files (test/e2e/fuzz-*.test.ts) cover every group once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes/index.js';
import { FIXTURES } from './fixtures.js';
import { GROUP_NAMES, groupsOfTag, inGroup, ISOLATION_GROUPS, plannedAttempts, swapInGroup } from './groups.js';
import { pathParamsOf, planAll } from './plan.js';

const here = dirname(fileURLToPath(import.meta.url));
const plans = planAll(ROUTES);
const swaps = plans.swaps.filter((s) => s.methods.length > 0);

describe('isolation: coverage of the route table by the group files', () => {
  it('every route of the table can be planned: each path parameter and reference has a fixture', () => {
    expect(Object.fromEntries(plans.errors)).toEqual({});
    for (const route of ROUTES) {
      for (const param of pathParamsOf(route)) expect(Object.keys(FIXTURES), `${route.id} {${param}}`).toContain(param);
    }
  });

  it('every route is in exactly one group (by its tag), and every group has routes', () => {
    const notOnce = ROUTES.filter((r) => groupsOfTag(r.tag).length !== 1).map(
      (r) => `${r.id} (tag ${r.tag}: in ${groupsOfTag(r.tag).join(', ') || 'no group'})`,
    );
    expect(notOnce, 'give the tag one group in test/isolation/groups.ts').toEqual([]);
    const covered = GROUP_NAMES.flatMap((g) => ROUTES.filter(inGroup(g)).map((r) => r.id));
    expect(covered.sort()).toEqual(ROUTES.map((r) => r.id).sort());
    for (const g of GROUP_NAMES) expect(ROUTES.filter(inGroup(g)).length, g).toBeGreaterThan(0);
    // No tag listed that no route has (a renamed tag would leave its routes to fail above).
    const tags = new Set(ROUTES.map((r) => r.tag));
    expect(
      Object.values(ISOLATION_GROUPS)
        .flat()
        .filter((t) => !tags.has(t)),
    ).toEqual([]);
  });

  it("every path's method swaps are in exactly one group", () => {
    const groupsOfSwap = swaps.map((s) => [s.path, GROUP_NAMES.filter((g) => swapInGroup(g)(s))] as const);
    expect(groupsOfSwap.filter(([, gs]) => gs.length !== 1)).toEqual([]);
  });

  it('every group has its test file, which runs the suite for that group; no other file runs it', () => {
    const files = readdirSync(here).filter((f) => f.endsWith('.test.ts'));
    const running = Object.fromEntries(
      files.flatMap((f) =>
        [...readFileSync(join(here, f), 'utf8').matchAll(/^isolationSuite\('([a-z-]+)'\);$/gm)].map((m) => [m[1]!, f]),
      ),
    );
    expect(running).toEqual(Object.fromEntries(GROUP_NAMES.map((g) => [g, `routes-${g}.test.ts`])));
  });

  it('the fuzzing files together cover every group once, so every route but the live stream', () => {
    const e2e = join(here, '..', 'e2e');
    const groups = readdirSync(e2e)
      .filter((f) => /^fuzz.*\.test\.ts$/.test(f))
      .flatMap((f) =>
        [...readFileSync(join(e2e, f), 'utf8').matchAll(/^fuzzSuite\(\[([^\]]*)\]\);$/gm)].flatMap((m) =>
          m[1]!.split(',').map((g) => g.trim().replace(/'/g, '')),
        ),
      );
    expect(groups.sort()).toEqual([...GROUP_NAMES].sort());
  });

  it("the groups' planned attempts add up to the whole table's: thousands", () => {
    const whole = plannedAttempts(plans, ROUTES, swaps);
    const byGroup = GROUP_NAMES.map((g) =>
      plannedAttempts(plans, ROUTES.filter(inGroup(g)), swaps.filter(swapInGroup(g))),
    );
    expect(byGroup.reduce((a, b) => a + b, 0)).toBe(whole);
    expect(whole).toBeGreaterThanOrEqual(1000);
    console.info(
      `isolation: ${whole} attempts planned over ${ROUTES.length} routes: ${GROUP_NAMES.map((g, i) => `${g} ${byGroup[i]}`).join(', ')}`,
    );
  });
});
