/**
 * What a route may declare about the tenant plan (shared/routes/types.ts `plan`): a feature only
 * some plans include, or a count the plan limits. The plans themselves, with their figures, are
 * shared/domain/accounts/plans.ts; the chain enforces a route's declaration (shared/http/plan-gate.ts).
 */

export type TenantPlan = 'free' | 'pro' | 'enterprise';

/** Features some plans lack: each gates the routes that declare it (docs/plans.md lists them). */
export const GATED_FEATURES = ['webhooks', 'integrations', 'analytics', 'threat_libraries'] as const;
export type GatedFeature = (typeof GATED_FEATURES)[number];

/** Counts a plan limits, each held by a counter item moved in the creating transaction. */
export type CountedLimit = 'sensors' | 'users';

/**
 * `feature`: refused (403) without it; `limit`: refused (402) at it; `retention`: nothing refused,
 * the route reads items the plan's retention covers, and hides those older (docs/plans.md).
 */
export type PlanRequirement = { feature: GatedFeature } | { limit: CountedLimit } | { retention: 'events' };
