/**
 * Exact per-caller limits ("10 per minute per IP"): API Gateway and WAF throttles are approximate,
 * so the count is ours, one DynamoDB item per caller and minute. Fixed windows aligned to the
 * minute; the answer carries the contract's X-RateLimit-* headers either way.
 */
import { countCall } from '../db/rate-limits.js';
import { HttpError } from '../http/errors.js';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

export class RateLimitedError extends HttpError {
  constructor(state: RateLimitState, nowSeconds: number) {
    super(429, `Too many requests: at most ${state.limit} per minute. Try again in ${state.reset - nowSeconds} s.`, {
      ...rateLimitHeaders(state),
      'Retry-After': String(Math.max(1, state.reset - nowSeconds)),
    });
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
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
  if (hits > perMinute) throw new RateLimitedError(state, nowSeconds);
  return state;
}
