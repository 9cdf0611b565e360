/**
 * The OpenAPI 3.1 document of the service, generated from the route table. Pure and
 * deterministic: the same routes and options always give the same document (no clock, no
 * environment), so it can be served, linted and compared in tests alike.
 *
 * Route schemas are JSON Schema 2020-12, which is OpenAPI 3.1's schema dialect, so they are used
 * as they are (deep-copied). The contract's two error bodies become `components.schemas`; every
 * error status becomes a `components.responses` entry; only components in use are emitted, so the
 * `oas3-unused-component` lint rule stays quiet.
 */
import { WEBHOOK_EVENTS, webhookBody, WORKFLOW_ACTION_DELIVERY } from '../schemas/webhooks.js';
import { ROLES, type Access, type RouteDef, type RouteUpload } from '../routes/types.js';
import { listHeaders } from '../routes/paging.js';
import { errorBody, validationError } from '../schemas/common.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { tagDescription } from './tags.js';
import { bodyIsOptional } from '../http/request-schemas.js';
import { MAX_JSON_DEPTH } from '../json-depth.js';

export interface OpenApiOptions {
  /** `info.version`: the version of this API (config `version`). */
  version: string;
  /** Base URL of this deployment; defaults to `/` (the host that serves the document). */
  serverUrl?: string;
  serverDescription?: string;
}

type Json = JsonSchema;
type Ref = { $ref: string };

export interface OpenApiOperation {
  tags: string[];
  summary: string;
  description: string;
  operationId: string;
  /** The least role the operation needs, or `public`. */
  'x-gatehouse-access': Access;
  /**
   * What the query parameters must satisfy together, as JSON Schema over the object of them
   * (`anyOf` of `required` sets, `dependentRequired`): OpenAPI describes each parameter alone.
   */
  'x-gatehouse-query-rules'?: Json;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json | Ref>;
  security: Array<Record<string, string[]>>;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema: Json;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    contact: { name: string };
    license: { name: string };
  };
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What the service POSTs to webhook subscribers, one entry per subscribable type (with the webhooks routes). */
  webhooks?: Record<string, { post: Json }>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    headers: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
}

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token from `POST /api/v1/portal/login`, sent as `Authorization: Bearer <access_token>`.',
  },
  apiKeyAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key, sent as `X-API-Key: <key>`. A key acts for one tenant with the role it was issued with.',
  },
} as const;

/** Security requirement of every non-public operation: either credential form will do. */
export const CREDENTIAL_REQUIRED: ReadonlyArray<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyAuth: [] }];

/** `tenants.config.get` -> `tenantsConfigGet`: an identifier that code generators and URLs take. */
export function operationIdFor(routeId: string): string {
  const words = routeId.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  return words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() : w.charAt(0).toUpperCase()) + w.slice(1)).join('');
}

interface ErrorKind {
  /** Component name under `components.responses`. */
  name: string;
  description: string;
  example: string;
  /** Extra response headers (components.headers names) besides X-Request-Id. */
  headers?: readonly string[];
}

/** Every error status the handler chain (and the contract) knows, with its component. */
const ERROR_KINDS: Readonly<Record<number, ErrorKind>> = {
  400: {
    name: 'BadRequest',
    description: `Malformed request: it cannot be read as HTTP or its path's percent-encoding is broken, or its body is not valid JSON or nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    example: 'The body is not valid JSON',
  },
  401: {
    name: 'Unauthorized',
    description: 'No credential, or the credential is invalid or expired.',
    example: 'Not authenticated',
    headers: ['WWW-Authenticate'],
  },
  402: {
    name: 'PlanLimitReached',
    description:
      'The tenant has as many as its plan allows (docs/plans.md). Besides `detail` the body names `plan`, `limit`, `allowed`, `count` and `upgrade` (`plan`: one that allows more, `route`: the route that changes plans).',
    example:
      'The free plan allows 25 sensors and this tenant has 25; the pro plan allows 500. A platform operator changes the plan: PATCH /api/v1/tenants/{tenant_id} {"plan": ...}',
  },
  403: {
    name: 'Forbidden',
    description:
      "Authenticated, but the caller's role does not allow this; or the tenant's plan does not include the route's feature (docs/plans.md: the body then also names `plan`, `feature` and `upgrade`).",
    example: 'This needs the SUPER_ADMIN role',
  },
  404: {
    name: 'NotFound',
    description: "No such resource. Another tenant's resource is answered the same way.",
    example: 'Not found',
  },
  409: {
    name: 'Conflict',
    description: 'Conflicts with the current state, or a transition the state machine forbids.',
    example: 'The request conflicts with the current state',
  },
  413: {
    name: 'PayloadTooLarge',
    description:
      'The body or upload is too large (any request past 10 MB, the limit of the gateway; a route may allow less).',
    example: 'The body is larger than 1048576 bytes',
  },
  414: {
    name: 'UriTooLong',
    description: 'The request line is too long; answered before the route runs.',
    example: 'The request line is too long',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'Wrong content type of the body.',
    example: 'The body must be JSON (Content-Type: application/json)',
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    description: 'The request line and headers are larger than 16 KB; answered before the route runs.',
    example:
      'The request line and headers are larger than 16 KB (a long query string?): send less, or send it in a body',
  },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limited; retry after the time given.',
    example: 'Too many requests',
    headers: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  },
  500: {
    name: 'InternalServerError',
    description: 'An unexpected fault. The body names the request id; retry with backoff.',
    example: 'Internal Server Error (request 0193a0b4-7c1e-7d2a-9f00-3c5e8a1b2c3d)',
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'A dependency (the table, storage, identity) cannot be reached or throttles; retry after the time given.',
    example: 'Service temporarily unavailable; retry in 5 s (request 0193a0b4-7c1e-7d2a-9f00-3c5e8a1b2c3d)',
    headers: ['Retry-After'],
  },
};

const HEADERS: Readonly<Record<string, Json>> = {
  'X-Request-Id': {
    description: 'Unique id of this request; quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
  },
  Location: { description: 'Where to go next, relative to this address.', schema: { type: 'string' } },
  'X-Read-Limit-Reached': {
    description:
      'Present (`true`) when the filters left matches unread: the page read as many items as one request may before it filled. Narrow the time range (start_date, end_date) to see older matches.',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-Read-Back-To': {
    description:
      'With `X-Read-Limit-Reached`: how far back the page looked, the receipt time of the oldest event it read (every event received after it was read). Set end_date before it to look further back.',
    schema: { type: 'string', format: 'date-time' },
  },
  Link: {
    description:
      'RFC 8288: `<url>; rel="next"`, the next page of this list (the same path and query with the next `offset`; `skip` on the audit log), root-relative. Absent on the last page.',
    schema: { type: 'string', examples: ['</api/v1/environments?limit=50&offset=50>; rel="next"'] },
  },
  'X-Total-Count': {
    description: 'How many items the list holds in all (the `total` of the body), where the count is cheap.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Cache-Control': {
    description: 'How long the answer may be kept by caches (seconds).',
    schema: { type: 'string', examples: ['public, max-age=10'] },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use.',
    schema: { type: 'string', examples: ['Bearer'] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets, in Unix seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
};

const VALIDATION_EXAMPLE = {
  detail: [{ loc: ['query', 'limit'], msg: 'must be <= 200', type: 'maximum' }],
};

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

const ref = (kind: string, name: string): Ref => ({ $ref: `#/components/${kind}/${name}` });

/** Copies a schema so the document shares nothing with the (readonly) route table. */
const copy = (schema: Json): Json => structuredClone<Json>(schema);

/** JSON with sorted keys, to compare schemas by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

const sortedObject = <T>(entries: Map<string, T>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Collects the components that operations refer to, so only those are emitted. */
class Components {
  private readonly schemas = new Map<string, Json>();
  private readonly responses = new Map<string, Json>();
  private readonly headers = new Map<string, Json>();
  private readonly schemaSources = new Map<string, string>();

  header(name: string): Ref {
    const header = HEADERS[name];
    if (!header) throw new Error(`openapi: no header component ${name}`);
    this.headers.set(name, header);
    return ref('headers', name);
  }

  private schema(name: string, schema: Json, owner: string): Ref {
    const source = canonical(schema);
    const known = this.schemaSources.get(name);
    if (known !== undefined && known !== source) {
      throw new Error(`openapi: ${owner}: two different schemas are titled ${name}`);
    }
    this.schemaSources.set(name, source);
    this.schemas.set(name, copy(schema));
    return ref('schemas', name);
  }

  /**
   * A body schema with a `title` (e.g. `TenantResponse`) becomes a named component, and so do the
   * titled `items` of an array body; anything else stays inline.
   */
  named(schema: Json, owner: string): Json | Ref {
    const title = schema.title;
    if (typeof title === 'string' && COMPONENT_NAME.test(title)) {
      if (title === 'Error' || title === 'ValidationError') {
        throw new Error(`openapi: ${owner}: the schema title ${title} is reserved`);
      }
      return this.schema(title, schema, owner);
    }
    const items = schema.items;
    if (schema.type === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
      return { ...copy(schema), items: this.named(items as Json, owner) };
    }
    return copy(schema);
  }

  error(status: number): Ref {
    if (status === 422) {
      const schema = this.schema('ValidationError', validationError, 'components');
      this.responses.set('ValidationError', {
        description: 'The request failed validation: one entry per problem.',
        headers: { 'X-Request-Id': this.header('X-Request-Id') },
        content: { 'application/json': { schema, example: VALIDATION_EXAMPLE } },
      });
      return ref('responses', 'ValidationError');
    }
    const kind = ERROR_KINDS[status] ?? {
      name: `Error${status}`,
      description: `Error ${status}.`,
      example: `Error ${status}`,
    };
    const headers: Record<string, Ref> = { 'X-Request-Id': this.header('X-Request-Id') };
    for (const h of kind.headers ?? []) headers[h] = this.header(h);
    this.responses.set(kind.name, {
      description: kind.description,
      headers,
      content: {
        'application/json': {
          schema: this.schema('Error', errorBody, 'components'),
          example: { detail: kind.example },
        },
      },
    });
    return ref('responses', kind.name);
  }

  toJSON(): OpenApiDocument['components'] {
    return {
      schemas: sortedObject(this.schemas),
      responses: sortedObject(this.responses),
      headers: sortedObject(this.headers),
      securitySchemes: copy(SECURITY_SCHEMES) as Record<string, Json>,
    };
  }
}

function accessText(access: Access): string {
  if (access === 'public') return '**Access:** public, no credential needed.';
  const higher = ROLES.slice(ROLES.indexOf(access) + 1).map((r) => `\`${r}\``);
  const who = higher.length === 0 ? `role \`${access}\` only` : `role \`${access}\` or higher (${higher.join(', ')})`;
  return `**Access:** ${who}, with a bearer token or an API key.`;
}

/** What the route needs of the tenant's plan (docs/plans.md), said next to its access. */
function planText(route: RouteDef): string {
  const need = route.plan;
  if (!need) return '';
  if ('retention' in need)
    return `\n\n**Plan:** shows ${need.retention} within the tenant plan's retention (docs/plans.md).`;
  return 'feature' in need
    ? `\n\n**Plan:** the tenant's plan must include \`${need.feature}\` (403 otherwise; docs/plans.md).`
    : `\n\n**Plan:** counts against the plan's \`${need.limit}\` limit (402 at it; docs/plans.md).`;
}

function objectProperties(schema: Json | undefined, owner: string, part: string): Array<[string, Json]> {
  if (schema === undefined) return [];
  const properties = schema.properties;
  if (properties === undefined) return [];
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
    throw new Error(`openapi: ${owner}: request.${part} must be an object schema with properties`);
  }
  return Object.entries(properties as Record<string, Json>);
}

function requiredNames(schema: Json | undefined): Set<string> {
  const required = schema?.required;
  return new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : []);
}

function parameter(
  name: string,
  where: 'path' | 'query' | 'header',
  schema: Json,
  required: boolean,
): OpenApiParameter {
  // The description belongs to the parameter; the schema keeps its limits.
  const { description, deprecated, ...rest } = copy(schema);
  const p: OpenApiParameter = { name, in: where, required, schema: rest };
  if (typeof description === 'string') p.description = description;
  if (deprecated === true) p.deprecated = true;
  return p;
}

const QUERY_RULES = ['anyOf', 'oneOf', 'dependentRequired'] as const;

/** The query schema's rules over several parameters, if any. */
function queryRules(query: Json | undefined): Json | undefined {
  if (!query) return undefined;
  const rules = Object.fromEntries(
    QUERY_RULES.filter((k) => query[k] !== undefined).map((k) => [k, structuredClone(query[k])]),
  );
  return Object.keys(rules).length > 0 ? rules : undefined;
}

const names = (list: unknown): string =>
  (Array.isArray(list) ? (list as string[]) : []).map((n) => `\`${n}\``).join(' and ');

/** The rules in words, for the operation's description. */
function queryRulesText(rules: Json): string {
  const sets = (k: 'anyOf' | 'oneOf') =>
    Array.isArray(rules[k]) ? (rules[k] as Json[]).map((b) => names(b.required)).filter(Boolean) : [];
  const lines: string[] = [];
  if (sets('anyOf').length > 0) lines.push(`Query parameters: give at least one of: ${sets('anyOf').join('; ')}.`);
  if (sets('oneOf').length > 0) lines.push(`Query parameters: give exactly one of: ${sets('oneOf').join('; ')}.`);
  const dependent = rules.dependentRequired as Record<string, string[]> | undefined;
  for (const [name, needs] of Object.entries(dependent ?? {})) lines.push(`\`${name}\` needs ${names(needs)}.`);
  return lines.join(' ');
}

/** Path parameters in the order of the template, then query parameters in schema order. */
function parametersOf(route: RouteDef): OpenApiParameter[] {
  const owner = `route ${route.id}`;
  const inTemplate = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const pathProps = new Map(objectProperties(route.request?.path, owner, 'path'));
  for (const name of pathProps.keys()) {
    if (!inTemplate.includes(name))
      throw new Error(`openapi: ${owner}: path parameter ${name} is not in ${route.path}`);
  }
  const params = inTemplate.map((name) => {
    const schema = pathProps.get(name);
    if (!schema) throw new Error(`openapi: ${owner}: {${name}} in the path has no schema in request.path`);
    return parameter(name, 'path', schema, true);
  });
  const query = route.request?.query;
  const required = requiredNames(query);
  for (const [name, schema] of objectProperties(query, owner, 'query')) {
    params.push(parameter(name, 'query', schema, required.has(name)));
  }
  const headers = route.request?.headers;
  const requiredHeaders = requiredNames(headers);
  for (const [name, schema] of objectProperties(headers, owner, 'headers')) {
    // Header names are case-insensitive; the documentation shows the usual spelling.
    const shown = name
      .replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
      .replace(/\bId\b/, 'ID');
    params.push(parameter(shown, 'header', schema, requiredHeaders.has(name)));
  }
  return params;
}

const TEXTUAL = /^text\/|[/+]json\b|javascript|[/+]xml\b/i;

function successResponse(route: RouteDef, components: Components): Json {
  const { status, description, schema, contentType } = route.response;
  const headers: Record<string, Ref> = { 'X-Request-Id': components.header('X-Request-Id') };
  for (const name of [...(route.response.headers ?? []), ...listHeaders(route)])
    headers[name] = components.header(name);
  const response: Record<string, unknown> = { description, headers };
  if (status === 204) return response;
  const owner = `route ${route.id}`;
  if (contentType !== undefined) {
    const media = schema
      ? { schema: components.named(schema, owner) }
      : TEXTUAL.test(contentType)
        ? { schema: { type: 'string' } }
        : {};
    response.content = { [contentType]: media };
    for (const other of route.response.alternateContentTypes ?? [])
      (response.content as Record<string, unknown>)[other] = TEXTUAL.test(other) ? { schema: { type: 'string' } } : {};
  } else if (schema) {
    response.content = { 'application/json': { schema: components.named(schema, owner) } };
  }
  return response;
}

/**
 * The body checks, 401/403/429 when it needs a credential, its own, 500 and 503; and on every
 * operation what is answered before any route runs: a request that cannot be read (400), a body
 * past the gateway's 10 MB (413), a request line or headers too long (414, 431), and a parameter
 * named like JavaScript's object machinery (`?__proto__=`), refused on every route whether it
 * takes parameters or not (422, shared/http/unsafe-input.ts).
 */
function errorStatuses(route: RouteDef): number[] {
  const statuses = new Set<number>([400, 413, 414, 422, 431]);
  const hasBody = route.request?.body !== undefined;
  if (hasBody) [400, 413, 415].forEach((s) => statuses.add(s));
  // An upload: not multipart is 415, past its size 413, a missing or bad file 422.
  if (route.upload) [413, 415].forEach((s) => statuses.add(s));
  // A caller's every call counts against its tenant's plan rate (contract: 429 with Retry-After).
  if (route.access !== 'public') [401, 403, 429].forEach((s) => statuses.add(s));
  // A plan's limit reached (its feature missing is a 403, above).
  if (route.plan && 'limit' in route.plan) statuses.add(402);
  for (const s of route.errors ?? []) {
    if (!Number.isInteger(s) || s < 400 || s > 599)
      throw new Error(`openapi: route ${route.id}: ${s} is not an error status`);
    statuses.add(s);
  }
  statuses.add(500);
  // Any route may meet a dependency that cannot be reached (the contract: 503 with Retry-After).
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * A multipart form with one file, in OpenAPI 3.1 terms: the file part is a string of binary
 * content (`contentMediaType`, not 3.0's `format: binary`).
 */
function uploadMedia(upload: RouteUpload): { schema: Json } {
  return {
    schema: {
      type: 'object',
      properties: {
        [upload.field]: {
          type: 'string',
          contentMediaType: 'application/octet-stream',
          description: `${upload.description} At most ${upload.maxBytes} bytes.`,
        },
      },
      required: [upload.field],
    },
  };
}

function operationOf(route: RouteDef, components: Components): OpenApiOperation {
  const parameters = parametersOf(route);
  const responses: Record<string, Json | Ref> = { [String(route.response.status)]: successResponse(route, components) };
  const also = route.response.alsoStatus;
  if (also) {
    const alsoRoute = also.schema ? { ...route, response: { ...route.response, schema: also.schema } } : route;
    responses[String(also.status)] = { ...successResponse(alsoRoute, components), description: also.description };
  }
  const redirect = route.response.redirect;
  if (redirect) {
    responses[String(redirect.status)] = {
      description: redirect.description,
      headers: { 'X-Request-Id': components.header('X-Request-Id'), Location: components.header('Location') },
    };
  }
  for (const status of errorStatuses(route)) {
    responses[String(status)] = components.error(status);
  }
  const op: OpenApiOperation = {
    tags: [route.tag],
    summary: route.summary,
    description: `${route.description ?? `${route.summary}.`}\n\n${accessText(route.access)}${planText(route)}`,
    operationId: operationIdFor(route.id),
    'x-gatehouse-access': route.access,
    responses,
    security: route.access === 'public' ? [] : CREDENTIAL_REQUIRED.map((r) => ({ ...r })),
  };
  if (parameters.length > 0) op.parameters = parameters;
  const rules = queryRules(route.request?.query);
  if (rules) {
    op['x-gatehouse-query-rules'] = rules;
    op.description = `${op.description}\n\n${queryRulesText(rules)}`;
  }
  const body = route.request?.body;
  if (body) {
    op.requestBody = {
      // Every field optional: the body may be left out (contract).
      required: !bodyIsOptional(body),
      content: { 'application/json': { schema: components.named(body, `route ${route.id}`) } },
    };
  } else if (route.upload) {
    op.requestBody = { required: true, content: { 'multipart/form-data': uploadMedia(route.upload) } };
  }
  // Keep the conventional key order: parameters and requestBody before responses.
  const { responses: r, security, ...head } = op;
  return { ...head, responses: r, security };
}

/**
 * The document's description: what the service is, counted from the routes it documents (the
 * spec's second description claims "more than 265 endpoints"; this one says what there is).
 */
const infoDescription = (operations: number, paths: number) =>
  [
    'Gatehouse is a multi-tenant physical-security backend: tenants and their users, environments, zones and sensors,',
    'the events they produce, the incidents made from them, and the audit trail of every change.',
    `This document describes ${operations} operations on ${paths} paths.`,
    '',
    ...INFO_SECTIONS,
  ].join('\n');

const INFO_SECTIONS = [
  '## Authentication',
  'Send `Authorization: Bearer <access_token>` (from `POST /api/v1/portal/login`) or `X-API-Key: <key>`.',
  `Each operation states the least role it needs (${ROLES.map((r) => `\`${r}\``).join(' < ')});`,
  'a higher role includes the lower ones. The tenant always comes from the credential: a `tenant_id` in a',
  "request must name the caller's own tenant unless the caller is `SUPER_ADMIN`, and another tenant's",
  'objects are answered 404, exactly like unknown ids.',
  '',
  '## Errors',
  'A request that fails validation is answered 422 with `{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}`,',
  'one entry per problem; `loc` starts with `path`, `query`, `header` or `body`. Every other error is answered',
  '`{"detail": "<message>"}`; a 5xx body names the request id and nothing else of the fault.',
  '',
  '## Conventions',
  "- Every response carries `X-Request-Id`; a route's response `X-Correlation-Id` too: the one the request sent when it is a plain token (letters, digits and `._:/-`, at most 128), else the request id. Quote it to follow what the request caused.",
  '- Ids are UUID strings; timestamps are RFC 3339 UTC with milliseconds; field names are snake_case.',
  '- Paged lists take `limit` (1 to 200, default 50) and `offset` (at least 0, default 0).',
  '- PATCH updates are partial: only the fields given change.',
];

/** The OpenAPI 3.1.0 document of `routes`. Throws on an inconsistent route table (a programming error). */
export function buildOpenApiDocument(routes: readonly RouteDef[], options: OpenApiOptions): OpenApiDocument {
  const components = new Components();
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const tags: string[] = [];
  const operationIds = new Map<string, string>();
  for (const route of routes) {
    const operation = operationOf(route, components);
    const clash = operationIds.get(operation.operationId);
    if (clash !== undefined) {
      throw new Error(`openapi: routes ${clash} and ${route.id} both make operationId ${operation.operationId}`);
    }
    operationIds.set(operation.operationId, route.id);
    const item = (paths[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`openapi: two routes for ${route.method} ${route.path}`);
    item[method] = operation;
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  const serverUrl = options.serverUrl ?? '/';
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse',
      version: options.version,
      description: infoDescription(operationIds.size, Object.keys(paths).length),
      contact: { name: 'Gatehouse platform team' },
      // The package is private and unlicensed for outside use.
      license: { name: 'Proprietary' },
    },
    servers: [
      {
        url: serverUrl,
        description:
          options.serverDescription ?? (serverUrl === '/' ? 'The host serving this document' : 'This deployment'),
      },
    ],
    tags: tags.map((name) => ({ name, description: tagDescription(name) })),
    paths,
    ...(tags.includes('webhooks') ? { webhooks: webhookDeliveries(components) } : {}),
    components: components.toJSON(),
  };
}

/** The Standard Webhooks headers every delivery carries (docs/contract: Webhooks). */
const DELIVERY_HEADERS: readonly OpenApiParameter[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id: the same on every retry and replay. Deduplicate on it.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the subscription secret; two, space-separated, for 24 hours after a rotation.',
    schema: { type: 'string' },
  },
];

function webhookDeliveries(components: Components): Record<string, { post: Json }> {
  const out: Record<string, { post: Json }> = {};
  for (const kind of [...WEBHOOK_EVENTS, WORKFLOW_ACTION_DELIVERY]) {
    // The body inline, its `data` a named component (an event, an incident): named once for all types.
    const body = webhookBody(kind) as Json & { properties: Record<string, unknown> };
    const schema = {
      ...body,
      properties: { ...body.properties, data: components.named(kind.data, `webhook ${kind.type}`) },
    };
    out[kind.type] = {
      post: {
        operationId: `webhook.${kind.type}`,
        summary: `Delivery of ${kind.type}`,
        description: `${kind.description} Answer 2xx within 15 s; anything else is retried (docs/contract: Webhooks), and 410 disables the subscription.`,
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: { '200': { description: 'Received (any 2xx).' } },
      },
    };
  }
  return out;
}
