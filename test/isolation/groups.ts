/**
 * The isolation suite runs in several files, one per group of routes (test/support/route-groups.ts,
 * by their OpenAPI tag), so a full run spreads it over the workers instead of one file of 364 tests
 * in a row. Each file seeds its own two tenants (suite.ts), so no file's writes are another's changes.
 *
 * Every tag is in exactly one group, and every group has its file: test/isolation/coverage.test.ts
 * checks both, and that the groups' attempts add up to the whole table's.
 */
import type { RouteDef } from '../../shared/routes/types.js';
import { VALID_PRINCIPALS, INVALID_PRINCIPAL_NAMES } from './principals.js';
import { refusedRoles } from './attempts.js';
import type { Plans, SwapPlan } from './plan.js';
import { inGroup, type RouteGroup } from '../support/route-groups.js';

export {
  GROUP_NAMES,
  groupsOfTag,
  inGroup,
  ROUTE_GROUPS as ISOLATION_GROUPS,
  type RouteGroup as IsolationGroup,
} from '../support/route-groups.js';

/** A path's method swaps go with the group of the first route declared on it. */
export const swapInGroup = (group: RouteGroup) => (swap: SwapPlan) => inGroup(group)(swap.routes[0]!);

/** Every principal of B the suite seeds: valid ones and one per kind of invalid credential. */
export const PRINCIPAL_COUNT = VALID_PRINCIPALS.length + INVALID_PRINCIPAL_NAMES.length;

/**
 * How many attempts the suite makes for these routes and swaps, known from the plans before any
 * data exists (attempts.ts makes one per variant and principal): cross-tenant variants as every
 * principal, B's own variants as every role the route refuses, every missing method as every principal.
 */
export function plannedAttempts(plans: Plans, routes: readonly RouteDef[], swaps: readonly SwapPlan[]): number {
  let n = 0;
  for (const route of routes) {
    const plan = plans.routes.get(route.id);
    if (!plan) continue;
    n += plan.crossTenant.length * PRINCIPAL_COUNT;
    n += plan.ownTenant.length * refusedRoles(route, VALID_PRINCIPALS).length;
  }
  for (const swap of swaps) n += swap.methods.length * PRINCIPAL_COUNT;
  return n;
}
