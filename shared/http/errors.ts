/**
 * The HTTP edge of the domain's errors (shared/errors.ts): each kind's status and headers. The
 * chain (shared/http/respond.ts) turns them into the contract's bodies: `{"detail": "..."}`, or
 * for 422 `{"detail": [{loc, msg, type}]}`.
 */
import { RateLimitedError, type DomainError, type ErrorKind } from '../errors.js';

export * from '../errors.js';

export const STATUS: Record<ErrorKind, number> = {
  malformed: 400,
  unauthenticated: 401,
  plan_limit: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  invalid: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The contract's rate-limit headers for a window. */
export function rateLimitHeaders(window: { limit: number; remaining: number; reset: number }): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(window.limit),
    'X-RateLimit-Remaining': String(window.remaining),
    'X-RateLimit-Reset': String(window.reset),
  };
}

/** How long a caller should wait after an outage of a dependency, when the error does not say. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * Headers that go with an error of this kind: `Retry-After` whenever trying again later may
 * succeed (a rate, an attempt in progress, an outage).
 */
export function errorHeaders(err: DomainError): Record<string, string> {
  if (err.kind === 'unauthenticated') return { 'WWW-Authenticate': 'Bearer' };
  const headers = err instanceof RateLimitedError ? rateLimitHeaders(err.window) : {};
  const said = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  const retryAfter =
    typeof said === 'number' ? said : err.kind === 'unavailable' ? OUTAGE_RETRY_AFTER_SECONDS : undefined;
  return retryAfter === undefined ? headers : { ...headers, 'Retry-After': String(retryAfter) };
}
