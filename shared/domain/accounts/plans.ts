/**
 * The plans a tenant can be on, and the limits each sets. `null` means no limit. Every feature
 * listed is either on every plan or one of the gated features (shared/vocabulary/plans.ts) that
 * the routes declaring it enforce; every limit is enforced: docs/plans.md says where.
 */
import type { CountedLimit, GatedFeature, TenantPlan } from '../../vocabulary/plans.js';

export interface Plan {
  plan: TenantPlan;
  name: string;
  description: string;
  limits: {
    requests_per_minute: number | null;
    users: number | null;
    sensors: number | null;
    retention_days: number | null;
  };
  features: string[];
}

/**
 * On every plan. `agents` are the workers doing the product's automated work for each tenant;
 * `developer_api` is the /v1 API, whose key tiers the plan bounds (docs/developer-api.md).
 */
const CORE = [
  'environments',
  'zones',
  'sensors',
  'events',
  'incidents',
  'audit_log',
  'event_stream',
  'voice_incidents',
  'agents',
  'developer_api',
];
const PAID: GatedFeature[] = ['webhooks', 'integrations', 'analytics', 'threat_libraries'];

export const PLANS: readonly Plan[] = [
  {
    plan: 'free',
    name: 'Free',
    description: 'One team getting started: a handful of users and sensors.',
    limits: { requests_per_minute: 100, users: 5, sensors: 25, retention_days: 30 },
    features: CORE,
  },
  {
    plan: 'pro',
    name: 'Pro',
    description: 'A security operation with several sites and integrations.',
    limits: { requests_per_minute: 1000, users: 50, sensors: 500, retention_days: 365 },
    features: [...CORE, ...PAID],
  },
  {
    plan: 'enterprise',
    name: 'Enterprise',
    description: 'Custom rates and no fixed limits; for platform operators and large estates.',
    limits: { requests_per_minute: null, users: null, sensors: null, retention_days: null },
    features: [...CORE, ...PAID],
  },
];

export function planOf(plan: TenantPlan): Plan {
  const found = PLANS.find((p) => p.plan === plan);
  if (!found) throw new Error(`unknown plan ${plan}`);
  return found;
}

export function hasFeature(plan: Plan, feature: GatedFeature): boolean {
  return plan.features.includes(feature);
}

/** The first plan (cheapest) that has `feature`. */
export function planWithFeature(feature: GatedFeature): Plan {
  return PLANS.find((p) => hasFeature(p, feature))!;
}

/** The first plan whose `limit` is above `count` (none limited: the last). */
export function planAbove(limit: CountedLimit, count: number): Plan {
  return PLANS.find((p) => p.limits[limit] === null || p.limits[limit] > count) ?? PLANS[PLANS.length - 1]!;
}

/** The route that changes a tenant's plan (a SUPER_ADMIN's). */
export const PLAN_CHANGE_ROUTE = 'PATCH /api/v1/tenants/{tenant_id} {"plan": ...}';

/** Days an event of the plan is kept and shown; null: as long as the tenant's configuration says. */
export function planRetentionDays(plan: TenantPlan): number | null {
  return planOf(plan).limits.retention_days;
}

/**
 * A stored event's TTL is stamped this long past its retention: reads hide it from the retention
 * on (`retentionFloorMs`), and a plan change re-stamps it (the `retention-restamp` worker) well
 * before DynamoDB's TTL may take it, so an upgrade loses nothing near its old end.
 */
export const RETENTION_GRACE_DAYS = 1;

/** Days an event is kept: the tenant's configured retention, at most the plan's. */
export function eventRetentionDays(plan: TenantPlan, configuredDays: number): number {
  const cap = planRetentionDays(plan);
  return cap === null ? configuredDays : Math.min(cap, configuredDays);
}

/** The TTL (epoch seconds) of an event received at `receivedMs`, kept `days`. */
export function eventExpiry(receivedMs: number, days: number): number {
  return Math.floor(receivedMs / 1000) + (days + RETENTION_GRACE_DAYS) * 86_400;
}

/** The oldest receipt time (ms) the plan shows at `nowMs`; null when it shows every event kept. */
export function retentionFloorMs(plan: TenantPlan, nowMs = Date.now()): number | null {
  const days = planRetentionDays(plan);
  return days === null ? null : nowMs - days * 86_400_000;
}
