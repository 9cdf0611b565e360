/**
 * The tenant plan at the route (docs/plans.md): a route that declares `plan` (shared/routes/types.ts)
 * is refused before its function runs when the plan of the tenant it acts in lacks the feature
 * (403) or has reached the limit (402); a route that reads what the plan's retention covers gets
 * the plan to hide what is older. The plan is the tenant item's, read with the caller on
 * every request (shared/auth/authenticate.ts), so a plan change holds from the next call; a
 * limit's count was read in the same trip. Another tenant (a SUPER_ADMIN's request naming one)
 * costs one more read of its tenant item and count.
 *
 * A route's function passes it to the chain (`httpHandler(route, fn, { plan: planGate })`), so
 * only the bundles of such routes carry it; the chain refuses to build a route that declares
 * `plan` without it.
 *
 * The check here answers the common case early; a limit is held by the creating transaction's
 * condition (shared/db/plan-counts.ts), which parallel requests cannot get past.
 */
import { ownTenant } from '../auth/tenant.js';
import { planCountFrom, planCountKey } from '../db/plan-counts.js';
import { readItems, type ItemKey, type Prefetched } from '../db/read-batch.js';
import { tenantFrom, tenantKey } from '../db/tenants.js';
import { featureNotInPlan, hasFeature, planLimitReached, planOf } from '../domain/accounts/index.js';
import { NotFoundError } from '../errors.js';
import type { RouteDef } from '../routes/types.js';
import type { Principal } from '../vocabulary/actor.js';
import type { TenantPlan } from '../vocabulary/plans.js';
import { TENANT_NOT_FOUND, type TenantId } from '../vocabulary/tenant.js';

/** What the chain reads with the caller for the route's plan check: the count of its limit. */
export function planKeys(route: RouteDef, tenantId: TenantId): ItemKey[] {
  return route.plan && 'limit' in route.plan ? [planCountKey(tenantId, route.plan.limit)] : [];
}

/** The plan of the tenant the request acts in, if the route allows it there; refuses otherwise. */
export async function checkPlan(
  route: RouteDef,
  principal: Principal,
  tenantId: TenantId,
  read: Prefetched,
): Promise<TenantPlan | null> {
  const need = route.plan;
  if (!need) return null;
  const own = tenantId === ownTenant(principal) && principal.plan;
  if (!own) await readItems([tenantKey(tenantId), ...planKeys(route, tenantId)], read);
  const plan = own || tenantFrom(read, tenantId)?.plan;
  if (!plan) throw new NotFoundError(TENANT_NOT_FOUND);
  if ('retention' in need) return plan;
  if ('feature' in need) {
    if (!hasFeature(planOf(plan), need.feature)) throw featureNotInPlan(plan, need.feature);
    return plan;
  }
  const allowed = planOf(plan).limits[need.limit];
  const count = planCountFrom(read, tenantId, need.limit);
  if (allowed !== null && typeof count === 'number' && count >= allowed)
    throw planLimitReached(plan, need.limit, count);
  return plan;
}

/** What a function of a route that declares `plan` passes to the chain (its `plan` option). */
export const planGate = { keys: planKeys, check: checkPlan };
export type PlanGate = typeof planGate;
