/**
 * The three documentation routes and health through the real handler chain, with API Gateway
 * REST proxy events. Public routes: no credential. The documentation makes no AWS call; health's
 * calls meet the unit project's closed ports, as a deployment whose dependencies are down.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const handlers: Record<string, Handler> = {};

beforeAll(async () => {
  // shared/config.ts reads these when it loads; set them before the first import.
  Object.assign(process.env, {
    TABLE_NAME: process.env.TABLE_NAME ?? 'unit-table',
    BUCKET_NAME: process.env.BUCKET_NAME ?? 'unit-bucket',
    EVENT_BUS_NAME: process.env.EVENT_BUS_NAME ?? 'unit-bus',
    USER_POOL_ID: process.env.USER_POOL_ID ?? 'eu-west-1_unit',
    USER_POOL_CLIENT_ID: process.env.USER_POOL_CLIENT_ID ?? 'unit-client',
    LOG_LEVEL: 'error',
  });
  for (const name of ['openapi', 'docs', 'docs-asset', 'health']) {
    handlers[name] = (await import(`../../functions/platform/${name}.ts`)).handler as Handler;
  }
});

function event(
  path: string,
  opts: {
    stagePath?: string;
    params?: Record<string, string>;
    headers?: Record<string, string>;
    query?: Record<string, string>;
  } = {},
): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path,
    resource: path,
    body: null,
    isBase64Encoded: false,
    headers: { Host: 'abc.execute-api.eu-west-1.amazonaws.com', 'X-Forwarded-Proto': 'https', ...opts.headers },
    multiValueHeaders: {},
    pathParameters: opts.params ?? null,
    queryStringParameters: opts.query ?? null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {
      requestId: 'req-1',
      path: opts.stagePath ?? path,
      stage: 'prod',
      identity: { sourceIp: '192.0.2.1' },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

const context = { awsRequestId: 'aws-1', functionName: 'unit' } as Context;
const call = (name: string, e: APIGatewayProxyEvent) => (handlers[name] as Handler)(e, context);

describe('GET /openapi.json', () => {
  it('answers the document with the deployment as its server', async () => {
    const result = await call('openapi', event('/openapi.json', { stagePath: '/prod/openapi.json' }));
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(result.headers?.['X-Request-Id']).toBe('req-1');
    const doc = JSON.parse(result.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
  });
});

describe('GET /docs', () => {
  it('answers the HTML page', async () => {
    const result = await call('docs', event('/docs', { stagePath: '/prod/docs' }));
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(result.headers?.['Content-Security-Policy']).toContain("script-src 'self'");
    expect(result.body).toContain('docs/swagger-ui-bundle.js');
  });
});

describe('GET /docs/{asset}', () => {
  it('answers the script as text with its type and caching', async () => {
    const result = await call(
      'docs-asset',
      event('/docs/swagger-ui-bundle.js', { params: { asset: 'swagger-ui-bundle.js' } }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBeFalsy();
    expect(result.headers?.['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(result.headers?.['Cache-Control']).toMatch(/^public, max-age=/);
    expect(result.body.length).toBeGreaterThan(1_000_000);

    const etag = String(result.headers?.ETag);
    const cached = await call(
      'docs-asset',
      event('/docs/swagger-ui-bundle.js', {
        params: { asset: 'swagger-ui-bundle.js' },
        headers: { 'If-None-Match': etag },
      }),
    );
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
  });

  it('answers the style sheet', async () => {
    const result = await call('docs-asset', event('/docs/swagger-ui.css', { params: { asset: 'swagger-ui.css' } }));
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('is 404 with the contract body for any other name', async () => {
    const result = await call('docs-asset', event('/docs/index.html', { params: { asset: 'index.html' } }));
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toEqual({ detail: expect.any(String) });
    expect(result.headers?.['X-Request-Id']).toBe('req-1');
  });
});

describe('GET /health', () => {
  it('answers 503 with Retry-After and the checks that failed when no dependency answers', async () => {
    const result = await call('health', event('/health'));
    expect(result.statusCode).toBe(503);
    expect(Number(result.headers?.['Retry-After'])).toBeGreaterThan(0);
    const body = JSON.parse(result.body);
    expect(body).toMatchObject({
      status: 'degraded',
      checks: { database: 'error', storage: 'error', identity: 'error' },
    });
    expect(body.detail).toBe('Not answering: database, storage, identity');
  });
});
