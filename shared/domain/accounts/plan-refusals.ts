/**
 * The answers of a refusal by the tenant's plan (docs/plans.md), apart from the plans themselves
 * so that only the bundles that refuse carry them.
 */
import { DomainError } from '../../errors.js';
import type { CountedLimit, GatedFeature, TenantPlan } from '../../vocabulary/plans.js';
import { PLAN_CHANGE_ROUTE, planAbove, planOf, planWithFeature } from './plans.js';

/**
 * Refused by the tenant's plan: a feature it lacks (403) or a limit it has reached (402). The body
 * names the plan, the feature or limit, the count where known, and the plan and route that lift it.
 */
export class PlanRefusal extends DomainError {
  constructor(
    kind: 'forbidden' | 'plan_limit',
    detail: string,
    override readonly extensions: Readonly<Record<string, unknown>>,
  ) {
    super(kind, detail);
  }
}

/** 403: the tenant's plan does not include `feature`. */
export function featureNotInPlan(plan: TenantPlan, feature: GatedFeature): PlanRefusal {
  const up = planWithFeature(feature);
  return new PlanRefusal(
    'forbidden',
    `The ${plan} plan does not include ${feature}; the ${up.plan} plan does. A platform operator changes the plan: ${PLAN_CHANGE_ROUTE}`,
    { plan, feature, upgrade: { plan: up.plan, route: PLAN_CHANGE_ROUTE } },
  );
}

/** 402: the tenant has as many of `limit` as its plan allows (`count`, where known). */
export function planLimitReached(plan: TenantPlan, limit: CountedLimit, count?: number): PlanRefusal {
  const allowed = planOf(plan).limits[limit] ?? 0;
  const up = planAbove(limit, Math.max(count ?? allowed, allowed));
  return new PlanRefusal(
    'plan_limit',
    `The ${plan} plan allows ${allowed} ${limit}${count === undefined ? '' : ` and this tenant has ${count}`}; the ${up.plan} plan allows ${up.limits[limit] ?? 'any number'}. A platform operator changes the plan: ${PLAN_CHANGE_ROUTE}`,
    {
      plan,
      limit,
      allowed,
      ...(count === undefined ? {} : { count }),
      upgrade: { plan: up.plan, route: PLAN_CHANGE_ROUTE },
    },
  );
}
