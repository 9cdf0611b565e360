/**
 * The typed input of a route, inferred from the very schemas that validate it and document it
 * (json-schema-to-ts): path parameters, query, headers and body as the route's function receives
 * them after validation (coerced, defaults filled in). Types only; reusable outside HTTP (the
 * agent tools take the same input).
 */
import type { Infer } from '../schemas/json-schema.js';
import type { RouteDef } from './types.js';

/** The type a schema validates; `Fallback` where the route declares none. */
export type Validated<S, Fallback> = S extends undefined ? Fallback : Infer<S>;

type RequestPart<R extends RouteDef, K extends 'path' | 'query' | 'body' | 'headers'> = R['request'] extends {
  readonly [P in K]: infer S;
}
  ? S
  : undefined;

/** Path parameters; none for a route without. */
export type ParamsOf<R extends RouteDef> = Validated<RequestPart<R, 'path'>, Record<string, never>>;
/** Query parameters after coercion and defaults; a route that declares none ignores any it is sent. */
export type QueryOf<R extends RouteDef> = Validated<RequestPart<R, 'query'>, Record<string, never>>;
/** The JSON body; `undefined` for a route that takes none. */
export type BodyOf<R extends RouteDef> = Validated<RequestPart<R, 'body'>, undefined>;
/** Headers (names in lower case): the declared ones typed, any other readable as a string. */
export type HeadersOf<R extends RouteDef> = Validated<RequestPart<R, 'headers'>, unknown> &
  Record<string, string | undefined>;

export interface RouteInput<R extends RouteDef> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  headers: HeadersOf<R>;
}
