import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  buildOpenApiDocument,
  CREDENTIAL_REQUIRED,
  operationIdFor,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '../../shared/openapi/document.js';
import { serverUrlOf } from '../../shared/openapi/server-url.js';
import { TAG_DESCRIPTIONS } from '../../shared/openapi/tags.js';
import { ROUTES, routeById, type RouteDef } from '../../shared/routes/index.js';
import type { JsonSchema } from '../../shared/schemas/json-schema.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = buildOpenApiDocument(ROUTES, { version: '1.2.3' });

const operation = (route: RouteDef): OpenApiOperation => {
  const op = doc.paths[route.path]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`no operation for ${route.method} ${route.path}`);
  return op;
};

const param = (routeId: string, name: string): OpenApiParameter => {
  const p = operation(routeById(routeId)).parameters?.find((x) => x.name === name);
  if (!p) throw new Error(`${routeId} has no parameter ${name}`);
  return p;
};

/** Follows a local `$ref` (one level is all the document uses). */
function deref(value: unknown): Record<string, unknown> {
  const r = (value as { $ref?: string }).$ref;
  if (r === undefined) return value as Record<string, unknown>;
  const target = r
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
  if (target === undefined) throw new Error(`dangling $ref ${r}`);
  return target as Record<string, unknown>;
}

const properties = (schema: JsonSchema | undefined) =>
  Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});

describe('OpenAPI document: top level', () => {
  it('is OpenAPI 3.1.0 with info, servers, tags and both security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Gatehouse', version: '1.2.3' });
    expect(doc.info.description.length).toBeGreaterThan(0);
    // The count it states is the document's own (the spec's second description claims a number).
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(doc.info.description).toContain(
      `describes ${operations} operations on ${Object.keys(doc.paths).length} paths`,
    );
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    expect(String(doc.components.securitySchemes.bearerAuth?.description)).toContain('POST /api/v1/portal/login');
  });

  it('takes the server URL it is given', () => {
    const d = buildOpenApiDocument(ROUTES, { version: '1', serverUrl: 'https://api.example.com/prod' });
    expect(d.servers[0]?.url).toBe('https://api.example.com/prod');
  });

  it('is deterministic and shares nothing with the route table', () => {
    const again = buildOpenApiDocument(ROUTES, { version: '1.2.3' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(doc));
    const body = operation(routeById('tenants.create')).requestBody?.content['application/json']?.schema;
    expect(body).toEqual(routeById('tenants.create').request?.body);
    expect(body).not.toBe(routeById('tenants.create').request?.body);
  });

  it('defines one tag per route tag, each with a written description', () => {
    const tags = [...new Set(ROUTES.map((r) => r.tag))];
    expect(doc.tags.map((t) => t.name)).toEqual(tags);
    for (const tag of doc.tags) {
      expect(Object.hasOwn(TAG_DESCRIPTIONS, tag.name), `describe tag ${tag.name} in shared/openapi/tags.ts`).toBe(
        true,
      );
      expect(tag.description).toBe(TAG_DESCRIPTIONS[tag.name]);
    }
  });

  it('has exactly one operation per route', () => {
    const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(count).toBe(ROUTES.length);
  });
});

describe.each(ROUTES.map((r) => [r.id, r] as const))('route %s', (_id, route) => {
  const op = operation(route);

  it('has its operation with a spec-safe operationId, tag, summary and a description naming the access', () => {
    expect(op.operationId).toBe(operationIdFor(route.id));
    expect(op.operationId).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
    expect(op.tags).toEqual([route.tag]);
    expect(op.summary).toBe(route.summary);
    expect(op['x-gatehouse-access']).toBe(route.access);
    expect(op.description).toContain(route.access === 'public' ? 'public' : `\`${route.access}\``);
  });

  it('is secured by its access', () => {
    expect(op.security).toEqual(route.access === 'public' ? [] : CREDENTIAL_REQUIRED);
  });

  it('has every path and query parameter with its schema', () => {
    const params = op.parameters ?? [];
    const pathNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathNames);
    for (const p of params.filter((x) => x.in === 'path')) expect(p.required).toBe(true);
    const query = route.request?.query;
    expect(params.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(properties(query));
    const required = (query?.required as string[] | undefined) ?? [];
    for (const p of params.filter((x) => x.in === 'query')) {
      expect(p.required).toBe(required.includes(p.name));
      const source = (query?.properties as Record<string, JsonSchema>)[p.name] ?? {};
      const { description, ...limits } = source;
      expect(p.schema).toEqual(limits);
      if (description !== undefined) expect(p.description).toBe(description);
    }
  });

  it('takes its JSON body, or its multipart upload, when it has one', () => {
    const body = route.request?.body;
    if (route.upload) {
      const field = route.upload.field;
      expect(op.requestBody).toEqual({
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                [field]: expect.objectContaining({ type: 'string', contentMediaType: 'application/octet-stream' }),
              },
              required: [field],
            },
          },
        },
      });
      return;
    }
    if (!body) {
      expect(op.requestBody).toBeUndefined();
      return;
    }
    // A body whose every field is optional may be left out (contract: no empty-body ceremony).
    const optional =
      !(body as { required?: unknown[] }).required?.length &&
      !('anyOf' in body) &&
      !('oneOf' in body) &&
      !('allOf' in body) &&
      !('if' in body) &&
      !('minProperties' in body);
    expect(op.requestBody).toEqual({ required: !optional, content: { 'application/json': { schema: body } } });
  });

  it('answers its success status with its schema or content type, and X-Request-Id', () => {
    const { status, schema, contentType } = route.response;
    const success = deref(op.responses[String(status)]);
    expect(success.description).toBe(route.response.description);
    expect(deref((success.headers as Record<string, unknown>)['X-Request-Id'])).toMatchObject({ required: true });
    const content = success.content as Record<string, { schema?: unknown }> | undefined;
    if (status === 204) expect(content).toBeUndefined();
    else if (contentType)
      expect(Object.keys(content ?? {})).toEqual([contentType, ...(route.response.alternateContentTypes ?? [])]);
    else if (schema) expect(content).toEqual({ 'application/json': { schema } });
  });

  it('lists its error responses as components with the contract bodies', () => {
    const statuses = Object.keys(op.responses)
      .map(Number)
      .filter((s) => s >= 400);
    // Every operation may meet a dependency outage: 503 (with Retry-After), never only 500; and
    // what is answered before any route runs: an unreadable request, a body past 10 MB, a request
    // line or headers too long, a parameter with a reserved name (`?__proto__=`: 422 on every route).
    const expected = new Set<number>([400, 413, 414, 422, 431, 500, 503, ...(route.errors ?? [])]);
    if (route.access !== 'public') [401, 403, 429].forEach((s) => expected.add(s));
    if (route.request?.body) [400, 413, 415].forEach((s) => expected.add(s));
    if (route.upload) [413, 415].forEach((s) => expected.add(s));
    expect(statuses).toEqual([...expected].sort((a, b) => a - b));
    for (const status of statuses) {
      const ref = op.responses[String(status)] as { $ref?: string };
      expect(ref.$ref, `${status} is a component`).toMatch(/^#\/components\/responses\//);
      const response = deref(ref);
      const headers = response.headers as Record<string, unknown>;
      expect(deref(headers['X-Request-Id'])).toMatchObject({ required: true });
      const media = (response.content as Record<string, { schema: unknown; example: { detail: unknown } }>)[
        'application/json'
      ];
      expect(media, `${status} answers JSON`).toBeDefined();
      const schema = deref(media?.schema);
      expect(schema.required).toEqual(['detail']);
      const detail = (schema.properties as Record<string, { type: string }>).detail;
      expect(detail?.type).toBe(status === 422 ? 'array' : 'string');
      expect(typeof media?.example.detail).toBe(status === 422 ? 'object' : 'string');
      if (status === 503 || status === 429) expect(Object.keys(headers)).toContain('Retry-After');
    }
  });
});

describe('parameters keep their limits', () => {
  it('tenants list: limit 1..200 default 50, offset 0..10,000 default 0, both optional', () => {
    expect(param('tenants.list', 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    });
    expect(param('tenants.list', 'offset')).toMatchObject({
      in: 'query',
      required: false,
      // A page reads offset + limit items: the contract's "in range" bounds it.
      schema: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
    });
  });

  it('tenant id: a required uuid path parameter', () => {
    expect(param('tenants.get', 'tenant_id')).toEqual({
      name: 'tenant_id',
      in: 'path',
      required: true,
      description: 'The tenant.',
      schema: { type: 'string', format: 'uuid' },
    });
  });

  it('docs asset: a required path parameter with its length limits', () => {
    expect(param('docs.asset', 'asset')).toMatchObject({
      in: 'path',
      required: true,
      schema: { minLength: 1, maxLength: 64 },
    });
  });
});

describe('operation-level details', () => {
  it('spells operation ids as identifiers', () => {
    expect(operationIdFor('tenants.config.get')).toBe('tenantsConfigGet');
    expect(operationIdFor('docs.asset')).toBe('docsAsset');
    expect(operationIdFor('audit-logs.list')).toBe('auditLogsList');
    expect(operationIdFor('health')).toBe('health');
  });

  it('names the least role and the higher ones in descriptions', () => {
    expect(operation(routeById('tenants.list')).description).toContain('role `SUPER_ADMIN` only');
    expect(operation(routeById('health')).description).toContain('no credential needed');
    const d = buildOpenApiDocument([{ ...routeById('tenants.get'), access: 'OPERATOR' }], { version: '1' });
    expect(d.paths['/api/v1/tenants/{tenant_id}']?.get?.description).toContain(
      'role `OPERATOR` or higher (`TENANT_ADMIN`, `SUPER_ADMIN`)',
    );
  });

  it('documents 429 with its rate-limit headers, and an unknown status generically', () => {
    const d = buildOpenApiDocument([{ ...routeById('health'), errors: [429, 418] }], { version: '1' });
    const headers = Object.keys(d.components.responses.TooManyRequests?.headers as object);
    expect(headers).toEqual([
      'X-Request-Id',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
    expect(d.paths['/health']?.get?.responses['418']).toEqual({ $ref: '#/components/responses/Error418' });
  });

  it('documents an upload as a multipart form with its file field, 413 and 415', () => {
    const upload = { field: 'file', maxBytes: 1024, description: 'A map file.' };
    const d = buildOpenApiDocument([{ ...routeById('tenants.get'), upload, errors: [] }], { version: '1' });
    const op = d.paths['/api/v1/tenants/{tenant_id}']?.get;
    expect(op?.requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: {
                type: 'string',
                contentMediaType: 'application/octet-stream',
                description: 'A map file. At most 1024 bytes.',
              },
            },
            required: ['file'],
          },
        },
      },
    });
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['413', '415', '422']));
  });

  it('emits only the components in use', () => {
    const d = buildOpenApiDocument([routeById('docs')], { version: '1' });
    expect(Object.keys(d.components.responses)).toEqual([
      'BadRequest',
      'InternalServerError',
      'PayloadTooLarge',
      'RequestHeaderFieldsTooLarge',
      'ServiceUnavailable',
      'UriTooLong',
      'ValidationError',
    ]);
    expect(Object.keys(d.components.schemas)).toEqual(['Error', 'ValidationError']);
    expect(Object.keys(d.components.headers)).toEqual(['Retry-After', 'X-Request-Id']);
  });

  it('lifts titled body schemas into components.schemas', () => {
    const titled = { ...routeById('tenants.get').response.schema, title: 'TenantResponse' };
    const routes: RouteDef[] = [
      { ...routeById('tenants.get'), response: { ...routeById('tenants.get').response, schema: titled } },
      {
        ...routeById('tenants.list'),
        response: { status: 200, description: 'x', schema: { type: 'array', items: titled } },
      },
    ];
    const d = buildOpenApiDocument(routes, { version: '1' });
    expect(d.components.schemas.TenantResponse).toEqual(titled);
    const list = d.paths['/api/v1/tenants']?.get?.responses['200'] as { content: Record<string, { schema: unknown }> };
    expect(list.content['application/json']?.schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/TenantResponse' },
    });
    const clash = [
      routes[0] as RouteDef,
      { ...routeById('tenants.create'), request: { body: { type: 'object', title: 'TenantResponse' } } },
    ];
    expect(() => buildOpenApiDocument(clash, { version: '1' })).toThrow(
      /two different schemas are titled TenantResponse/,
    );
  });

  it('refuses an inconsistent route table', () => {
    const get = routeById('tenants.get');
    expect(() => buildOpenApiDocument([{ ...get, request: {} }], { version: '1' })).toThrow(
      /\{tenant_id\} in the path has no schema/,
    );
    expect(() => buildOpenApiDocument([{ ...get, path: '/api/v1/tenants/x' }], { version: '1' })).toThrow(/not in/);
    expect(() => buildOpenApiDocument([get, { ...get, id: 'tenants-get', method: 'POST' }], { version: '1' })).toThrow(
      /operationId/,
    );
    expect(() => buildOpenApiDocument([get, { ...get, id: 'other' }], { version: '1' })).toThrow(/two routes/);
    expect(() => buildOpenApiDocument([{ ...get, errors: [302] }], { version: '1' })).toThrow(/not an error status/);
  });
});

describe('server URL of a request', () => {
  it('is the stage URL behind the execute-api endpoint', () => {
    const url = serverUrlOf(
      {
        headers: { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' },
        requestContext: { path: '/prod/openapi.json', stage: 'prod' },
      },
      '/openapi.json',
    );
    expect(url).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it('keeps a custom domain base path, and has no prefix at the root', () => {
    const headers = { Host: 'api.example.com', 'X-Forwarded-Proto': 'https' };
    expect(
      serverUrlOf({ headers, requestContext: { path: '/gatehouse/openapi.json', stage: 'prod' } }, '/openapi.json'),
    ).toBe('https://api.example.com/gatehouse');
    expect(serverUrlOf({ headers, requestContext: { path: '/openapi.json', stage: 'prod' } }, '/openapi.json')).toBe(
      'https://api.example.com',
    );
  });

  it('is plain http on the local server', () => {
    expect(
      serverUrlOf(
        { headers: { host: '127.0.0.1:3000' }, requestContext: { path: '/openapi.json', stage: 'local' } },
        '/openapi.json',
      ),
    ).toBe('http://127.0.0.1:3000');
  });

  it('falls back to / when the host is missing or odd', () => {
    expect(serverUrlOf({ headers: {} }, '/openapi.json')).toBe('/');
    expect(serverUrlOf({ headers: { host: 'evil.com/"><script>' } }, '/openapi.json')).toBe('/');
    expect(
      serverUrlOf({ headers: { host: 'a.example' }, requestContext: { path: '/x y/openapi.json' } }, '/openapi.json'),
    ).toBe('http://a.example');
  });
});

describe('OpenAPI document: validity', () => {
  const require = createRequire(import.meta.url);
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

  it('validates against the OpenAPI 3.1 schema (the copy spectral ships)', () => {
    const dir = '@stoplight/spectral-rulesets/dist/oas/schemas';
    const files = [
      'json-schema/draft-2020-12/validation.json',
      'json-schema/draft-2020-12/index.json',
      'oas/v3.1/meta.schema.json',
      'oas/v3.1/dialect.schema.json',
      'oas/v3.1/index.json',
    ];
    let schemas: object[];
    try {
      schemas = files.map((f) => require(`${dir}/${f}`) as object);
    } catch {
      // Spectral's layout changed; the spectral test below still checks the document.
      return;
    }
    const oasSchema = schemas.pop() as object;
    // allErrors off: the dialect's `errorMessage` keyword is spectral's own, unknown to plain ajv.
    const ajv = addFormats(new Ajv2020({ strict: false, validateFormats: true }));
    // The OAS schema's own format for media-type keys (e.g. application/json); any string passes here.
    ajv.addFormat('media-range', true);
    for (const schema of schemas) ajv.addSchema(schema);
    const validate = ajv.compile(oasSchema);
    const ok = validate(JSON.parse(JSON.stringify(doc)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    // The schema really checks: a parameter without `in` is refused.
    const broken = JSON.parse(JSON.stringify(doc));
    delete broken.paths['/api/v1/tenants'].get.parameters[0].in;
    expect(validate(broken)).toBe(false);
  });

  it('has only valid JSON Schema 2020-12 schemas', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas: Array<[string, unknown]> = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) schemas.push([`${method} ${path} ${p.name}`, p.schema]);
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
          schemas.push([`${method} ${path} body ${type}`, media.schema]);
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(
            (response as { content?: Record<string, { schema?: unknown }> }).content ?? {},
          )) {
            if (media.schema !== undefined) schemas.push([`${method} ${path} ${status} ${type}`, media.schema]);
          }
        }
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) schemas.push([name, schema]);
    expect(schemas.length).toBeGreaterThan(ROUTES.length);
    for (const [where, schema] of schemas) {
      expect(ajv.validateSchema(schema as object), `${where}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('passes spectral:oas with no errors and no warnings', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(buildOpenApiDocument(ROUTES, { version: '0.1.0' }), null, 2));
      const results = await spectral(file);
      expect(
        results.map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`),
      ).toEqual([]);

      // The linter really lints: a document missing a tag definition is reported.
      const broken: OpenApiDocument = JSON.parse(JSON.stringify(doc));
      broken.tags = broken.tags.slice(1);
      await writeFile(file, JSON.stringify(broken));
      expect((await spectral(file)).map((r) => r.code)).toContain('operation-tag-defined');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  /** 0 error, 1 warning, 2 info, 3 hint. */
  severity: number;
}

/** Runs the spectral CLI with the project's ruleset; returns its error and warning results. */
async function spectral(file: string): Promise<SpectralResult[]> {
  const bin = join(ROOT, 'node_modules', '.bin', 'spectral');
  const args = [
    'lint',
    '--format',
    'json',
    '--ruleset',
    join(ROOT, '.spectral.yaml'),
    '--fail-severity',
    'hint',
    '--quiet',
    file,
  ];
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(bin, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }));
  } catch (err) {
    // Exit code 1 means "found results"; anything without JSON output is a real failure.
    stdout = (err as { stdout?: string }).stdout ?? '';
    if (!stdout.trim().startsWith('[')) throw err;
  }
  const results = JSON.parse(stdout.trim() || '[]') as SpectralResult[];
  return results.filter((r) => r.severity <= 1);
}
