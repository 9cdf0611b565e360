/**
 * What a caller of the `/v1` developer API may do (docs/developer-api.md): its tier (a developer
 * key's own, else its tenant plan's), whether the tier includes an endpoint, and its calls counted
 * in fixed windows: the minute (exact: a conditional UpdateItem per call, so the eleventh call of
 * a free key's minute is refused however many arrive at once) and the calendar month (UTC).
 */
import { countWindow, peekWindow } from '../../db/developer-windows.js';
import { ForbiddenError, RateLimitedError } from '../../errors.js';
import type { Principal } from '../../vocabulary/actor.js';
import { TIERS, tierOfPlan, type DeveloperEndpoint, type DeveloperTier } from '../../vocabulary/developer.js';
import type { RateLimitState } from '../requests/index.js';

export interface DeveloperAccess {
  tier: DeveloperTier;
  perMinute: number;
  monthlyQuota: number | null;
  endpoints: readonly DeveloperEndpoint[];
  /** Whose calls are counted: the key, or the user of a bearer token. */
  caller: string;
}

export function accessOf(principal: Principal): DeveloperAccess {
  const tier = principal.developerTier ?? tierOfPlan(principal.plan ?? 'free');
  const def = TIERS[tier];
  return {
    tier,
    perMinute: (tier === 'enterprise' ? principal.keyRateLimit : null) ?? def.perMinute,
    monthlyQuota: def.monthlyQuota,
    endpoints: def.endpoints,
    caller: principal.apiKeyId ? `key#${principal.apiKeyId}` : `user#${principal.userId}`,
  };
}

const MINUTE = 60;
const minuteOf = (nowMs: number) => Math.floor(nowMs / 1000 / MINUTE) * MINUTE;
/** The calendar month's start and end (Unix seconds, UTC). */
function monthOf(nowMs: number): { start: number; end: number } {
  const d = new Date(nowMs);
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000,
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000,
  };
}

/** The state of the caller's minute, without counting a call: for an answer refused before counting (403). */
export async function minuteState(access: DeveloperAccess, nowMs = Date.now()): Promise<RateLimitState> {
  const start = minuteOf(nowMs);
  const hits = await peekWindow('v1-minute', access.caller, start);
  return { limit: access.perMinute, remaining: Math.max(0, access.perMinute - hits), reset: start + MINUTE };
}

/** Refuses an endpoint the tier does not include (403). */
export function assertTierIncludes(access: DeveloperAccess, endpoint: DeveloperEndpoint): void {
  if (!access.endpoints.includes(endpoint)) {
    throw new ForbiddenError(
      `The ${access.tier} tier does not include ${endpoint}; it includes ${access.endpoints.join(', ')}`,
    );
  }
}

/**
 * Counts a call: in the minute (429 past the tier's rate, with the window's headers) and then in
 * the month (429 past the quota, until the month turns). Returns the minute's state for the
 * answer's X-RateLimit headers.
 */
export async function countDeveloperCall(access: DeveloperAccess, nowMs = Date.now()): Promise<RateLimitState> {
  const start = minuteOf(nowMs);
  const reset = start + MINUTE;
  const nowSeconds = Math.floor(nowMs / 1000);
  const hits = await countWindow('v1-minute', access.caller, start, access.perMinute, reset + MINUTE);
  if (hits === null)
    throw new RateLimitedError({ limit: access.perMinute, remaining: 0, reset }, Math.max(1, reset - nowSeconds));
  const state = { limit: access.perMinute, remaining: Math.max(0, access.perMinute - hits), reset };
  const month = monthOf(nowMs);
  const used = await countWindow('v1-month', access.caller, month.start, access.monthlyQuota, month.end + 35 * 86400);
  if (used === null) {
    throw new RateLimitedError(
      { ...state, remaining: 0 },
      Math.max(1, month.end - nowSeconds),
      `The monthly quota of the ${access.tier} tier (${access.monthlyQuota} calls) is used up; it renews at ${new Date(month.end * 1000).toISOString()}`,
    );
  }
  return state;
}

/** What `GET /v1/usage` answers: the tier, the minute and the month so far (this call included). */
export async function developerUsage(access: DeveloperAccess, principal: Principal, nowMs = Date.now()) {
  const month = monthOf(nowMs);
  const [minute, used] = await Promise.all([
    minuteState(access, nowMs),
    peekWindow('v1-month', access.caller, month.start),
  ]);
  return {
    tier: access.tier,
    key_id: principal.apiKeyId ?? null,
    tenant_id: principal.tenantId,
    endpoints: access.endpoints,
    rate_limit: { per_minute: access.perMinute, remaining: minute.remaining, reset: minute.reset },
    monthly: {
      quota: access.monthlyQuota,
      used,
      remaining: access.monthlyQuota === null ? null : Math.max(0, access.monthlyQuota - used),
      resets_at: new Date(month.end * 1000).toISOString(),
    },
  };
}
