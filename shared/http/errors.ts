/**
 * Errors with an HTTP status. Domain code throws these; the handler chain maps them to the
 * contract's bodies: `{"detail": "..."}`, or for 422 `{"detail": [{loc, msg, type}]}`.
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(detail = 'Bad request') {
    super(400, detail);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail = 'Not authenticated') {
    super(401, detail, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail = 'Not allowed') {
    super(403, detail);
  }
}

export class NotFoundError extends HttpError {
  constructor(detail = 'Not found') {
    super(404, detail);
  }
}

export class ConflictError extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(detail: string) {
    super(413, detail);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail: string) {
    super(415, detail);
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(detail: string) {
    super(503, detail);
  }
}

/** Where a validation problem is: starts with `path`, `query`, `header` or `body`. */
export type Loc = [('path' | 'query' | 'header' | 'body'), ...(string | number)[]];

export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

export class RequestValidationError extends HttpError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** One validation problem, for checks a schema cannot express (e.g. a valid IANA time zone). */
export function invalid(loc: Loc, msg: string, type = 'value_error'): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type }]);
}
