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

/** Headers that go with an error of this kind. */
export function errorHeaders(err: DomainError): Record<string, string> {
  if (err.kind === 'unauthenticated') return { 'WWW-Authenticate': 'Bearer' };
  if (err instanceof RateLimitedError) return { ...rateLimitHeaders(err.window), 'Retry-After': String(err.retryAfterSeconds) };
  return {};
}
