/**
 * Exact per-caller limits ("10 per minute per IP"): API Gateway and WAF throttles are approximate,
 * so the count is ours, one DynamoDB item per caller and minute. Fixed windows aligned to the
 * minute; the answer carries the contract's X-RateLimit-* headers either way.
 */
import { countCall } from '../db/rate-limits.js';
import { RateLimitedError } from '../errors.js';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
}


/**
 * Counts a call of `caller` (a client IP, or a tenant id for plan rates) against `name`; throws
 * RateLimitedError past the limit.
 */
export async function consumeRateLimit(name: string, caller: string, perMinute: number, nowMs = Date.now()): Promise<RateLimitState> {
  const nowSeconds = Math.floor(nowMs / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  const reset = windowStart + WINDOW_SECONDS;
  const hits = await countCall(name, caller, windowStart, reset + WINDOW_SECONDS);
  const state = { limit: perMinute, remaining: Math.max(0, perMinute - hits), reset };
  if (hits > perMinute) throw new RateLimitedError(state, Math.max(1, state.reset - nowSeconds));
  return state;
}
