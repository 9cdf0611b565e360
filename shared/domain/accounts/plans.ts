/** The plans a tenant can be on, and the limits each sets. `null` means no limit. */
import type { TenantPlan } from '../../db/tenants.js';

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

const CORE = ['environments', 'zones', 'sensors', 'events', 'incidents', 'audit_log', 'event_stream'];

export const PLANS: readonly Plan[] = [
  {
    plan: 'free',
    name: 'Free',
    description: 'One team getting started: a handful of users and sensors.',
    limits: { requests_per_minute: 100, users: 5, sensors: 25, retention_days: 30 },
    features: [...CORE, 'voice_incidents'],
  },
  {
    plan: 'pro',
    name: 'Pro',
    description: 'A security operation with several sites and integrations.',
    limits: { requests_per_minute: 1000, users: 50, sensors: 500, retention_days: 365 },
    features: [...CORE, 'voice_incidents', 'webhooks', 'integrations', 'analytics', 'threat_libraries'],
  },
  {
    plan: 'enterprise',
    name: 'Enterprise',
    description: 'Custom rates and no fixed limits; for platform operators and large estates.',
    limits: { requests_per_minute: null, users: null, sensors: null, retention_days: null },
    features: [
      ...CORE,
      'voice_incidents',
      'webhooks',
      'integrations',
      'analytics',
      'threat_libraries',
      'agents',
      'developer_api',
    ],
  },
];

export function planOf(plan: TenantPlan): Plan {
  const found = PLANS.find((p) => p.plan === plan);
  if (!found) throw new Error(`unknown plan ${plan}`);
  return found;
}
