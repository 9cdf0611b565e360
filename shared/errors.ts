/**
 * What can go wrong, in the domain's words: every layer throws these, none of them knows HTTP.
 * Each error has a kind; the HTTP edge maps kinds to statuses and headers (shared/http/errors.ts)
 * and to the contract's bodies. A validation problem carries its field paths (`loc`), which start
 * with the part of the request the field came in (`path`, `query`, `header`, `body`).
 */

export type ErrorKind =
  /** The request cannot be read at all (malformed JSON). */
  | 'malformed'
  /** No credential, or not a valid one. */
  | 'unauthenticated'
  /** Authenticated, but not allowed. */
  | 'forbidden'
  /** A limit of the tenant's plan is reached: a higher plan lifts it. */
  | 'plan_limit'
  /** Unknown, or another tenant's: the two are never told apart. */
  | 'not_found'
  /** Conflicts with the current state (a duplicate, a forbidden transition, a concurrent change). */
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  /** Fails validation: one issue per problem, each with its field path. */
  | 'invalid'
  | 'rate_limited'
  /** A dependency cannot be reached or throttles: the caller may retry. */
  | 'unavailable';

export class DomainError extends Error {
  /** Members the error body carries besides `detail` (a plan refusal's plan, limit and way up). */
  extensions?: Readonly<Record<string, unknown>>;
  constructor(
    readonly kind: ErrorKind,
    readonly detail: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** A refusal is the caller's to mend (4xx); anything else is a fault or an outage. */
export const isRefusal = (err: unknown): err is DomainError => err instanceof DomainError && err.kind !== 'unavailable';

export class BadRequestError extends DomainError {
  constructor(detail = 'Bad request') {
    super('malformed', detail);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(detail = 'Not authenticated') {
    super('unauthenticated', detail);
  }
}

export class ForbiddenError extends DomainError {
  constructor(detail = 'Not allowed') {
    super('forbidden', detail);
  }
}

export class NotFoundError extends DomainError {
  constructor(detail = 'Not found') {
    super('not_found', detail);
  }
}

export class ConflictError extends DomainError {
  constructor(detail: string) {
    super('conflict', detail);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(detail: string) {
    super('too_large', detail);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor(detail: string) {
    super('unsupported_media_type', detail);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(detail: string) {
    super('unavailable', detail);
  }
}

/** A fixed window of calls is spent: the state says how many and when it resets. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly window: { limit: number; remaining: number; reset: number },
    readonly retryAfterSeconds: number,
    detail = `Too many requests: at most ${window.limit} per minute. Try again in ${retryAfterSeconds} s.`,
  ) {
    super('rate_limited', detail);
  }
}

/** Where a validation problem is: starts with `path`, `query`, `header` or `body`. */
export type Loc = ['path' | 'query' | 'header' | 'body', ...(string | number)[]];

export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

export class RequestValidationError extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    super('invalid', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** One validation problem, for checks a schema cannot express (e.g. a valid IANA time zone). */
export function invalid(loc: Loc, msg: string, type = 'value_error'): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type }]);
}
