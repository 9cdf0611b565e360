/**
 * The handler chain every HTTP route runs through (middy):
 *   request context (id, logger, timing, X-Request-Id) -> header normalisation -> authentication
 *   and role check -> JSON body parsing -> validation (validators compiled when the bundle was built) ->
 *   the route's function -> reply shaping (a list's page and its link to the next, shared/http/list-page.ts);
 *   errors mapped to the contract's bodies.
 *
 * A route file is glue only: `export const handler = httpHandler(tenantsGetRoute, async (req) => ...)`,
 * bound to the route object, so its input is typed from the route's schemas.
 * A streaming route uses `streamingHttpHandler` (shared/http/stream-handler.ts) on the same chain.
 */
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { authenticate } from '../auth/authenticate.js';
import { Prefetched, type ItemKey } from '../db/read-batch.js';
import { ownTenant, resolveTenant } from '../auth/tenant.js';
import { roleSatisfies, type Principal } from '../auth/principal.js';
import type { Actor, CallerActor } from '../vocabulary/actor.js';
import { appendLogContext, invocationFields, log, saneCorrelationId, withLogContext, type Logger } from '../log.js';
import { flushingMetrics } from '../metrics.js';
import { annotateTier, traced } from '../tracing.js';
import type { BodyOf, HeadersOf, ParamsOf, QueryOf } from '../routes/input.js';
import type { RouteDef, RouteRateLimit, RouteUpload } from '../routes/types.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { consumeRateLimit, type RateLimitState, type TenantEvents, type ZoneMinute } from '../domain/requests/index.js';
import { TenantMeter } from './tenant-meter.js';
import { tenantScopeOf } from '../adapters/tenant-credentials.js';
import { enterEachTenant, enterTenant, withUndecidedTenant } from '../tenant-scope.js';
import { tenantSessionPolicy } from '../iam.js';
import { RateLimitedError } from '../errors.js';
import { toProxyResult, errorResult } from './respond.js';
import { pageOfList } from './list-page.js';
import { listPaging } from '../routes/paging.js';
import { ForbiddenError, PayloadTooLargeError, rateLimitHeaders, UnsupportedMediaTypeError } from './errors.js';
import { bodyIsOptional } from './request-schemas.js';
import { jsonBody } from './json-body.js';
import { largerFilesHint } from './larger-files.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../json-depth.js';
import type { Reply } from './reply.js';
import { requestValidators } from './validation.js';
import type { PlanGate } from './plan-gate.js';
import type { PlanRequirement, TenantPlan } from '../vocabulary/plans.js';

/** What a route's function receives: its input typed from its own schemas, and who asks. */
export interface HttpRequest<R extends RouteDef = RouteDef> {
  route: R;
  /** The verified caller; null on public routes. */
  principal: Principal | null;
  /** The caller as an actor: a user or API key on every route that needs a credential. */
  actor: ActorOf<R>;
  /** The tenant the request acts in, decided by the chain from the route's `tenant` declaration. */
  tenant: TenantOf<R>;
  /** That tenant's plan, for a route that declares `plan` (the chain checked it). */
  plan: PlanOf<R>;
  /**
   * Decides a tenant that a part of the body names (each event of a batch), by the same rule:
   * the caller's own unless SUPER_ADMIN names another that exists; 404 otherwise.
   */
  tenantOf: (requested?: string | null) => Promise<TenantId>;
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  /** Header names in lower case. */
  headers: HeadersOf<R>;
  requestId: string;
  sourceIp: string;
  log: Logger;
  event: APIGatewayProxyEvent;
  /** What the chain read with the caller: the route's `prefetch` keys, for its lookups. */
  read: Prefetched;
  /**
   * Counts the request against its tenant's rate (for a route whose options say `meter:
   * 'function'`: before its writes, refusing past the limit) and adds events to tenants' zone
   * counters, the caller's in the same write, in the minute of `atMs`; returns each tenant's
   * minute counts of the zones added to.
   */
  meter: (stored: Map<TenantId, TenantEvents>, atMs: number) => Promise<Map<TenantId, ZoneMinute>>;
  /** Milliseconds this invocation may still run (Lambda's timeout): how long an attempt may hold an Idempotency-Key. */
  remainingMs: () => number;
}

/** The input of a request before validation, for `prefetch`: it may be anything. */
export interface RawInput {
  body: unknown;
  params: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
}

/** How a route uses the chain beyond its route object. */
export interface RouteOptions {
  /**
   * Items the route will read in the caller's tenant, read with the caller in one BatchGetItem
   * (they reach the function as `req.read`). Built from unchecked input: only used if valid.
   */
  prefetch?: (input: RawInput, tenantId: TenantId) => ItemKey[];
  /**
   * `function`: the route counts the request itself, with `req.meter`, once it knows what it
   * will write (ingest counts its zone events in the same write). A request that ends before
   * is counted when it ends.
   */
  meter?: 'function';
  /**
   * Who may call, decided instead of the chain's own step (credential, role, tenant plan rate):
   * the developer API's (shared/http/developer-auth.ts), which only its functions carry.
   */
  authorizer?: (route: RouteDef) => MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
  /**
   * The plan check (shared/http/plan-gate.ts `planGate`), which a route that declares `plan` must
   * pass: only its bundle carries it.
   */
  plan?: PlanGate;
}

/** The actor of a route: a caller (user or API key) unless the route is public. */
export type ActorOf<R extends RouteDef> = R['access'] extends 'public' ? Actor : CallerActor;

/** A decided tenant for routes that declare where theirs comes from; none for the others. */
export type TenantOf<R extends RouteDef> = R['tenant'] extends 'none' | 'events' | 'found' ? null : TenantId;

/** The decided tenant's plan for routes that declare what it must allow; none for the others. */
export type PlanOf<R extends RouteDef> = R extends { plan: PlanRequirement } ? TenantPlan : null;

/** A route's function: typed input in, a reply out. */
export type RouteFn<R extends RouteDef> = (req: HttpRequest<R>) => Promise<Reply>;

export interface Internal {
  requestId: string;
  /** The client's `X-Correlation-Id` when sane, else the request id: carried on to what the request causes. */
  correlationId: string;
  log: Logger;
  startedAt: number;
  principal: Principal | null;
  /** The per-IP limit's state (a public route's `rateLimit`). */
  rateLimit?: RateLimitState;
  /** The tenant's plan rate. */
  meter: TenantMeter;
  tenant: TenantId | null;
  /** The decided tenant's plan, for a route that declares `plan`. */
  plan: TenantPlan | null;
  read: Prefetched;
}

type Req = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** What the chain's steps learn about a request (id, logger, caller, rate window), by its context. */
const internals = new WeakMap<Context, Internal>();

/** What the chain knows of a request so far; for an `authorizer` to record the caller it found. */
export function internalOf(context: Context): Internal {
  const internal = internals.get(context);
  if (!internal) throw new Error('the request context was not set up by the chain');
  return internal;
}

/** The Lambda handler of `route`: the chain, then `fn` with the validated, typed input. */
export function httpHandler<const R extends RouteDef>(route: R, fn: NoInfer<RouteFn<R>>, options: RouteOptions = {}) {
  const paging = listPaging(route);
  return withInvocationLog(
    route,
    handlerChain(
      route,
      async (event, context) => {
        const run = () => fn(httpRequestOf<R>(route, event, context));
        return toProxyResult(route, await (paging ? pageOfList(paging, event, run) : run()));
      },
      options,
    ),
  );
}

/**
 * Each invocation of `handler` in a log context of its own (shared/log.ts): every line it writes,
 * however deep, carries its cold start and Lambda request id, and what the chain adds (the request
 * id, route, correlation id, tenant). And in the handler subsegment of its trace, annotated with
 * the route (shared/tracing.ts).
 */
export const withInvocationLog =
  <E, T>(route: RouteDef, handler: (event: E, context: Context) => Promise<T>) =>
  (event: E, context: Context): Promise<T> =>
    withLogContext(invocationFields(context), () => traced({ route: route.id }, () => handler(event, context)));

/** The function a chain wraps: it runs once every "before" step has passed. */
export type ChainCore = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The chain around `core`: request context and error mapping, header normalisation, the route's
 * rate limit, authentication and role, body parsing, validation (schemas compiled here, when the
 * route's module loads: once per cold start). `httpHandler` puts a route's function inside it; a
 * streaming route (shared/http/stream-handler.ts) puts the opening of its stream inside it, so
 * both answer refusals (401, 403, 404, 422, 429, ...) the same way.
 */
export function handlerChain(route: RouteDef, core: ChainCore, options: RouteOptions = {}) {
  if ((route.developer || route.optionalCredential) && !options.authorizer) {
    throw new Error(
      `route ${route.id} is a developer route: its function must pass the developer authorizer (shared/http/developer-auth.ts)`,
    );
  }
  if (route.plan && !options.plan) {
    throw new Error(`route ${route.id} declares a plan: its function must pass planGate (shared/http/plan-gate.ts)`);
  }
  const validators = requestValidators(route);
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(core)
    .use(requestContext(route))
    .use(httpHeaderNormalizer());
  if (route.rateLimit) chain.use(rateLimiter(route.rateLimit));
  chain.use(options.authorizer ? options.authorizer(route) : authorize(route, options));
  if (route.request?.body) {
    chain.use(jsonBody(bodyIsOptional(route.request.body)));
  } else if (route.upload) {
    chain.use(uploadBody(route.upload));
  }
  for (const v of validators) chain.use(v);
  chain.use(decideTenant(route, options.plan));
  return asTenantDecided(route, flushingMetrics(chain));
}

/**
 * `run` as the tenant the chain decides: from then on, its table and bucket calls on tenant data
 * (the plan check, the route's function, the steps after it) use that tenant's credentials
 * (shared/tenant-scope.ts; docs/architecture.md, 27), and so do the caller's own reads while
 * authenticating, in the tenant the credential names. A route without table or bucket grants
 * makes no call on tenant data.
 */
function asTenantDecided(route: RouteDef, run: ChainCore): ChainCore {
  if (!route.grants.table && !route.grants.bucket) return run;
  const sessionPolicy = tenantSessionPolicy(route.grants);
  const make = (tenantId: string) => tenantScopeOf(tenantId, sessionPolicy);
  return (event, context) => withUndecidedTenant(make, () => run(event, context));
}

/**
 * The request as a route's function sees it; call it inside a chain's core (the steps set
 * `context`). The event's parts have passed the route's validators by then, so they are what the
 * schemas say: the one place where the untyped event becomes the typed input.
 */
export function httpRequestOf<R extends RouteDef>(
  route: R,
  event: APIGatewayProxyEvent,
  context: Context,
): HttpRequest<R> {
  const internal = internalOf(context);
  const principal = internal.principal;
  const sourceIp = event.requestContext?.identity?.sourceIp ?? 'unknown';
  return {
    route,
    principal,
    actor: validated<ActorOf<R>>(actorOf(principal, internal.requestId, sourceIp, toolOf(event))),
    tenant: validated<TenantOf<R>>(internal.tenant),
    plan: validated<PlanOf<R>>(internal.plan),
    tenantOf: (requested) => {
      if (!principal) throw new Error(`route ${route.id} is public: it has no caller to decide a tenant for`);
      return resolveTenant(principal, requested);
    },
    params: validated<ParamsOf<R>>(event.pathParameters ?? {}),
    query: validated<QueryOf<R>>(event.queryStringParameters ?? {}),
    body: validated<BodyOf<R>>(event.body),
    headers: validated<HeadersOf<R>>(event.headers),
    requestId: internal.requestId,
    sourceIp,
    log: internal.log,
    event,
    read: internal.read,
    meter: (stored, atMs) => internal.meter.meter(stored, atMs),
    remainingMs: () => context.getRemainingTimeInMillis(),
  };
}

function actorOf(principal: Principal | null, requestId: string, sourceIp: string, tool: string | undefined): Actor {
  if (!principal) return { kind: 'anonymous', principal: null, requestId, sourceIp };
  return {
    kind: principal.via === 'api_key' ? 'api_key' : 'user',
    principal,
    requestId,
    sourceIp,
    ...(tool ? { tool } : {}),
  };
}

/**
 * The agent tool a request says it is a call of (`X-Gatehouse-Tool`, sent by the tool server,
 * shared/mcp/api-call.ts): a label next to the credential in the audit, never an authority (the
 * credential decides everything); a value that is not a tool-like name is ignored.
 */
function toolOf(event: APIGatewayProxyEvent): string | undefined {
  const value = event.headers?.['x-gatehouse-tool'];
  return value && /^[a-z][a-z0-9_.:-]{0,63}$/i.test(value) ? value : undefined;
}

/**
 * What the chain has established about a request (a part the route's validators checked, the
 * caller authentication found, the tenant it decided): from here on it has that type.
 */
const validated = <T>(part: unknown): T => part as T;

/** Request id, logger, timing; adds X-Request-Id to every answer and maps errors. */
function requestContext(route: RouteDef): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const finish = (request: Req, result: APIGatewayProxyResult) => {
    const internal = internalOf(request.context);
    const rate = internal.meter.rate ?? internal.rateLimit;
    const limits = rate ? rateLimitHeaders(rate) : {};
    result.headers = {
      ...limits,
      ...result.headers,
      'X-Request-Id': internal.requestId,
      'X-Correlation-Id': internal.correlationId,
    };
    request.response = result;
    internal.log.info('request', {
      method: request.event.httpMethod,
      path: request.event.path,
      status: result.statusCode,
      duration_ms: Date.now() - internal.startedAt,
      tenant_id: internal.principal?.tenantId,
      user_id: internal.principal?.userId,
    });
  };
  return {
    before: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      const correlationId = saneCorrelationId(correlationHeader(request.event)) ?? requestId;
      appendLogContext({ request_id: requestId, route: route.id, correlation_id: correlationId });
      const internal: Internal = {
        requestId,
        correlationId,
        startedAt: Date.now(),
        principal: null,
        tenant: null,
        plan: null,
        read: new Prefetched(),
        meter: new TenantMeter(),
        log: log.child({ request_id: requestId, route: route.id }),
      };
      internals.set(request.context, internal);
      request.event.pathParameters ??= {};
      request.event.queryStringParameters ??= {};
    },
    after: async (request) => {
      // A replayed answer, say: the request still counts, and past the limit it is refused.
      await internalOf(request.context).meter.atEnd();
      finish(request, request.response as APIGatewayProxyResult);
    },
    onError: async (request) => {
      const internal = internals.get(request.context);
      if (internal?.meter.deferred) {
        // A refused request counts too; its own error is the answer either way.
        await internal.meter.atEnd().catch((err: unknown) => {
          if (!(err instanceof RateLimitedError)) internal.log.warn('could not count a failed request', { err });
        });
      }
      const requestId = internal?.requestId ?? request.context.awsRequestId;
      const result = errorResult(request.error, requestId, internal?.log ?? log);
      if (!internal) {
        request.response = {
          ...result,
          headers: { ...result.headers, 'X-Request-Id': requestId, 'X-Correlation-Id': requestId },
        };
        return;
      }
      finish(request, result);
    },
  };
}

/** The client's `X-Correlation-Id`, before the headers are normalised. */
function correlationHeader(event: APIGatewayProxyEvent): string | undefined {
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (name.toLowerCase() === 'x-correlation-id') return value ?? undefined;
  }
  return undefined;
}

/** The route's per-IP limit, counted before anything else; `finish` adds its headers to every answer. */
function rateLimiter(limit: RouteRateLimit): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const caller = request.event.requestContext?.identity?.sourceIp ?? 'unknown';
      const state = await consumeRateLimit(limit.name, caller, limit.perMinute);
      internalOf(request.context).rateLimit = state;
    },
  };
}

/** Authentication and the route's least role; public routes pass. */
function authorize(route: RouteDef, options: RouteOptions): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      if (route.access === 'public') return;
      const headers = request.event.headers ?? {};
      const { prefetch } = options;
      const raw = prefetch ? rawInput(request.event) : undefined;
      // The plan's count (a route with a plan limit) is read in the same trip as the caller.
      const { principal, read } = await authenticate(
        {
          authorization: headers.authorization,
          apiKey: headers['x-api-key'],
          sourceIp: request.event.requestContext?.identity?.sourceIp ?? 'unknown',
        },
        prefetch || options.plan
          ? (tenantId) => [
              ...(prefetch ? prefetch(raw!, tenantId) : []),
              ...(options.plan?.keys(route, tenantId) ?? []),
            ]
          : undefined,
      );
      const internal = internalOf(request.context);
      internal.principal = principal;
      internal.read = read;
      if (!roleSatisfies(principal.role, route.access)) {
        throw new ForbiddenError(`This needs the ${route.access} role`);
      }
      if (route.bearerOnly && principal.via === 'api_key') {
        throw new ForbiddenError('This needs a bearer token: an API key cannot do it');
      }
      // The plan's request rate, per tenant: every authenticated call counts, here or (for a
      // route that counts itself) before its writes.
      const own = { tenantId: ownTenant(principal), perMinute: principal.requestsPerMinute };
      if (options.meter === 'function') internal.meter.defer(own);
      else await internal.meter.count(own);
    },
  };
}

/**
 * The parts of a request before parsing and validation: a body that is not JSON is none, and nor
 * is one nested too deep (the body step refuses it next).
 */
function rawInput(event: APIGatewayProxyEvent): RawInput {
  let body: unknown;
  try {
    const text = typeof event.body === 'string' && !event.isBase64Encoded ? event.body : undefined;
    body = text !== undefined && !jsonNestsDeeperThan(text, MAX_JSON_DEPTH) ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { body, params: event.pathParameters ?? {}, query: event.queryStringParameters ?? {} };
}

/**
 * The route's tenant, decided once from its declaration, after validation (a `tenant_id` in the
 * body is parsed and checked by then): the route's function and the domain receive a TenantId;
 * then what the tenant's plan allows, for a route that declares `plan`.
 */
function decideTenant(
  route: RouteDef,
  plan: PlanGate | undefined,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const internal = internalOf(request.context);
      const principal = internal.principal;
      appendLogContext({ tenant_id: principal?.tenantId });
      // Whose credentials the rest runs with (asTenantDecided), for a route on tenant data.
      const onTenantData = Boolean(route.grants.table || route.grants.bucket);
      if (route.tenant === 'none' || route.tenant === 'events' || route.tenant === 'found') {
        if (route.plan) throw new Error(`route ${route.id} declares a plan but no tenant to check it in`);
        // No tenant decided here (an event's is, each): the caller's plan, if there is a caller.
        annotateTier(principal?.plan);
        // A batch of events has its sender's tenant, unless a SUPER_ADMIN sends it: then each call
        // runs as the one tenant its keys name (shared/tenant-scope.ts `enterEachTenant`).
        if (route.tenant === 'events' && principal && onTenantData) {
          if (principal.role === 'SUPER_ADMIN') enterEachTenant();
          else enterTenant(ownTenant(principal));
        }
        return;
      }
      if (!principal) throw new Error(`route ${route.id} declares a tenant but has no caller`);
      const named = route.tenant === 'credential' ? undefined : namedTenant(request.event, route.tenant);
      // A SUPER_ADMIN's read of the tenant it names is that tenant's; an empty name is none.
      if (onTenantData) enterTenant(named || ownTenant(principal));
      internal.tenant = named === undefined ? ownTenant(principal) : await resolveTenant(principal, named);
      appendLogContext({ tenant_id: internal.tenant });
      // What the tenant's plan allows, before the route's function runs (shared/http/plan-gate.ts).
      if (plan) internal.plan = await plan.check(route, principal, internal.tenant, internal.read);
      // The trace's tier: the plan checked, else the caller's when the request acts in its own
      // tenant (another one's plan is only read where the route checks it).
      annotateTier(internal.plan ?? (internal.tenant === ownTenant(principal) ? principal.plan : undefined));
    },
  };
}

/** The `tenant_id` a request names in one of its parts, after validation. */
function namedTenant(event: APIGatewayProxyEvent, part: 'query' | 'path' | 'body'): string | undefined {
  const source =
    part === 'query' ? event.queryStringParameters : part === 'path' ? event.pathParameters : (event.body as unknown);
  if (!source || typeof source !== 'object') return undefined;
  const value = new Map<string, unknown>(Object.entries(source)).get('tenant_id');
  return typeof value === 'string' ? value : undefined;
}

/** An upload route: the body must be multipart; its size is checked before anything parses it. */
function uploadBody(upload: RouteUpload): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const contentType = request.event.headers['content-type'];
      if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) {
        throw new UnsupportedMediaTypeError(
          `The body must be multipart/form-data with the file in the field "${upload.field}"`,
        );
      }
      const { body, isBase64Encoded } = request.event;
      const bytes = !body ? 0 : isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      // The form's own framing adds a little to the file.
      if (bytes > upload.maxBytes + 64 * 1024) {
        throw new PayloadTooLargeError(
          `The upload is larger than ${upload.maxBytes} bytes; ${largerFilesHint(upload, request.event.pathParameters)}`,
        );
      }
    },
  };
}
