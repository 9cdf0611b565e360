/**
 * The shape of one HTTP route. Routes are data: the CDK stack, the local server, the OpenAPI
 * document and the tests all read the same table (`shared/routes/index.ts`).
 */
import type { JsonSchema } from '../schemas/json-schema.js';

import type { Access } from '../vocabulary/roles.js';
import type { QueueId } from '../vocabulary/queues.js';
import type { DeveloperEndpoint } from '../vocabulary/developer.js';
import type { PlanRequirement } from '../vocabulary/plans.js';

export { ROLES } from '../vocabulary/roles.js';
export type { Access, Role } from '../vocabulary/roles.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The AWS resources a route's function touches. The CDK stack grants exactly these and nothing
 * else, so each function gets least privilege.
 */
export interface RouteGrants {
  /** Single table: read only or read-write. */
  table?: 'read' | 'write';
  /** Files bucket: read only or read-write. */
  bucket?: 'read' | 'write';
  /** Cognito user pool actions the function calls, e.g. `cognito-idp:InitiateAuth`. */
  userPool?: readonly string[];
  /** Publishes to the event bus. */
  eventBus?: boolean;
  /** Amazon Transcribe jobs: `write` starts and reads them (the voice route), `read` only reads. */
  speech?: 'read' | 'write';
  /** Calls Bedrock models (field extraction, summaries). */
  ai?: boolean;
  /** The deployment's secrets key (shared/adapters/secret-box.ts): seal new secrets, open kept ones, or both. */
  secrets?: 'seal' | 'open' | 'both';
  /**
   * The audit key (shared/db/audit/seal.ts): `seal` makes the MACs that seal the audit entries the
   * function writes (kms:GenerateMac), `verify` checks entries' seals (kms:VerifyMac). Declared on
   * exactly the functions whose bundle holds the sealing code (auditPut): test/infra/bundle-budget.test.ts
   * reads the bundles and fails when a function writes audit entries without it, or has it and writes none.
   */
  audit?: 'seal' | 'verify';
  /**
   * The data lake (docs/data-lake.md): `catalog` creates tenants' Glue databases and tables;
   * `query` runs Athena queries with a tenant's scoped credentials (assumes the lake query role).
   */
  lake?: 'catalog' | 'query';
  /** Sends email (Amazon SES, from the deployment's EMAIL_FROM identity). */
  email?: boolean;
  /**
   * The service's queues (shared/workers.ts QUEUES) it sends to: `send` to the queue, `dead-letters`
   * to its dead-letter queue; `depth`: reads how many messages the queue and its dead-letter queue
   * hold (live status). Consuming a queue is its trigger's, not a grant.
   */
  queues?: Readonly<Partial<Record<QueueId, 'send' | 'dead-letters' | 'depth'>>>;
  /** Creates, changes and deletes connectors' EventBridge Scheduler schedules (lib/connector-schedules.ts). */
  schedules?: boolean;
}

export interface RouteResponse {
  /** Success status. */
  status: number;
  description: string;
  /** JSON Schema of the success body; absent for 204. */
  schema?: JsonSchema;
  /** Content type of the success body when it is not JSON (HTML, JS, CSS, SSE). */
  contentType?: string;
  /** Other content types the success body may have, in cases the description states (CSV on `Accept`, a stylesheet). */
  alternateContentTypes?: readonly string[];
  /** Response headers of the success answer besides X-Request-Id (shared/openapi/document.ts names them). */
  headers?: readonly string[];
  /** A redirect (with `Location`) the route answers instead in a case its description states. */
  redirect?: { status: 302 | 303; description: string };
  /**
   * Another success status, in a case its description states (201 created, 200 existed already,
   * 202 accepted for later), with the same body unless it names its own schema.
   */
  alsoStatus?: { status: 200 | 201 | 202; description: string; schema?: JsonSchema };
}

/** A fixed-window limit on calls per client IP, counted before anything else runs. */
export interface RouteRateLimit {
  /** Counter name, shared by routes that should count together. */
  name: string;
  perMinute: number;
}

export interface RouteUpload {
  /** The form field that carries the file. */
  field: string;
  maxBytes: number;
  /** What the file may be, for the documentation. */
  description: string;
  /** How a file past `maxBytes` is sent instead, told by the 413 (`{name}` filled from the path). */
  largerFiles?: string;
}

/**
 * Where a route's tenant comes from; the chain decides it once, before the route's function runs
 * (shared/auth/tenant.ts), and hands it over as `req.tenant`:
 * - `credential`: the caller's own tenant;
 * - `query`, `path`, `body`: the `tenant_id` there, the caller's own when absent (only SUPER_ADMIN
 *   may name another);
 * - `events`: each event of a batch names its own (`req.tenantOf` decides each);
 * - `none`: no tenant, or one the route finds itself (public routes by their key or token, the
 *   platform's tenant routes, the event stream, where a SUPER_ADMIN may watch every tenant).
 */
/**
 * Where a route's tenant comes from: the caller's credential, a `tenant_id` in the query, path or
 * body, each event of a batch (`events`); `found`: the function finds it in what the request
 * carries (a public report's key, a link's token, a signed address, the tenant a SUPER_ADMIN's
 * path names as the resource) and acts as it (shared/tenant-scope.ts `asTenant`); `none`: it acts
 * on no one tenant (docs/architecture.md, 27).
 */
export type TenantSource = 'credential' | 'query' | 'path' | 'body' | 'events' | 'found' | 'none';

export interface RouteDef {
  /** Unique, stable id; also the OpenAPI operationId and the Lambda's logical name. */
  id: string;
  method: HttpMethod;
  /** The path as the spec writes it, with `{name}` parameters. */
  path: string;
  /** Handler entry, relative to the repository root, exporting `handler`. */
  handler: string;
  access: Access;
  tenant: TenantSource;
  /** Grouping: OpenAPI tag and CDK nested stack. */
  tag: string;
  summary: string;
  description?: string;
  request?: {
    /** Object schema whose properties are the path parameters. */
    path?: JsonSchema;
    /** Object schema whose properties are the query parameters. */
    query?: JsonSchema;
    /** JSON body schema. */
    body?: JsonSchema;
    /**
     * Object schema of the request headers the route reads (names in lower case); other headers
     * pass. Validated like the rest and documented as header parameters.
     */
    headers?: JsonSchema;
  };
  response: RouteResponse;
  /** Error statuses this route can answer beyond those every route of its kind can. */
  errors?: readonly number[];
  /**
   * A `multipart/form-data` body with one file instead of JSON: the chain checks the content type
   * and size (413 past `maxBytes`) and hands the raw body to the route.
   */
  upload?: RouteUpload;
  /** Calls per client IP per minute; past it 429 with Retry-After and X-RateLimit-* headers. */
  rateLimit?: RouteRateLimit;
  /** Refused to API-key callers: minting credentials needs a person's bearer token. */
  bearerOnly?: boolean;
  /**
   * A route of the `/v1` developer API (docs/developer-api.md): its credential is an API key (as
   * `Authorization: Bearer ghk_...` or `X-API-Key`) or a bearer token; the caller's tier must
   * include `endpoint` (403), and each call counts against the tier's minute and month (429),
   * instead of the tenant plan's rate. Every answer carries the X-RateLimit headers.
   */
  developer?: { endpoint: DeveloperEndpoint };
  /**
   * What the tenant's plan must allow (docs/plans.md): a `feature` (403 without it) or room under
   * a `limit` (402 at it). The chain checks it, for the tenant the request acts in, before the
   * route's function runs, and hands the plan over as `req.plan`. Document the status in `errors`.
   */
  plan?: PlanRequirement;
  /** A public route that also takes a credential when one is sent: its caller, if any, reaches the function. */
  optionalCredential?: true;
  /** Streams its response (server-sent events). */
  streaming?: boolean;
  grants: RouteGrants;
  /** Lambda timeout in seconds; defaults to 10. */
  timeoutSeconds?: number;
  /** Lambda memory in MB; defaults to 512. */
  memoryMb?: number;
}
