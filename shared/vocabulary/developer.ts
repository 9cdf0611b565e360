/**
 * The `/v1` developer API's tiers (docs/developer-api.md): what each may call, how often a minute
 * and how much a month. A key issued by `POST /v1/auth/keys` carries its tier; any other credential
 * (a bearer token, a portal key) gets its tenant plan's tier.
 */
export const DEVELOPER_ENDPOINTS = ['keys', 'usage', 'threat-score', 'vessel-profile', 'cable-risk'] as const;
export type DeveloperEndpoint = (typeof DEVELOPER_ENDPOINTS)[number];

export const DEVELOPER_TIERS = ['free', 'pro', 'enterprise'] as const;
export type DeveloperTier = (typeof DEVELOPER_TIERS)[number];

export interface TierDef {
  tier: DeveloperTier;
  description: string;
  /** Calls a minute; an enterprise key may carry its own. */
  perMinute: number;
  /** Calls a calendar month (UTC); null: unlimited. */
  monthlyQuota: number | null;
  endpoints: readonly DeveloperEndpoint[];
}

export const TIERS: Readonly<Record<DeveloperTier, TierDef>> = {
  free: {
    tier: 'free',
    description: 'Self-serve: vessel profiles and the threat score, to try the API.',
    perMinute: 10,
    monthlyQuota: 1_000,
    endpoints: ['keys', 'usage', 'threat-score', 'vessel-profile'],
  },
  pro: {
    tier: 'pro',
    description:
      'Every endpoint, for an application in production; needs a TENANT_ADMIN of a pro or enterprise tenant.',
    perMinute: 120,
    monthlyQuota: 100_000,
    endpoints: DEVELOPER_ENDPOINTS,
  },
  enterprise: {
    tier: 'enterprise',
    description:
      'Every endpoint, a rate set per key (1,000 a minute unless set), no monthly quota; needs a TENANT_ADMIN of an enterprise tenant.',
    perMinute: 1_000,
    monthlyQuota: null,
    endpoints: DEVELOPER_ENDPOINTS,
  },
};

/** The tier of a credential without one of its own: its tenant plan's (the plans are named alike). */
export const tierOfPlan = (plan: 'free' | 'pro' | 'enterprise'): DeveloperTier => plan;

/** Whether a tenant on `plan` may hold keys of `tier`. */
export const planAllowsTier = (plan: 'free' | 'pro' | 'enterprise', tier: DeveloperTier): boolean =>
  DEVELOPER_TIERS.indexOf(tier) <= DEVELOPER_TIERS.indexOf(tierOfPlan(plan));
