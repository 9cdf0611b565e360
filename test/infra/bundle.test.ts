/**
 * One real esbuild bundle, of the route whose package needs more than its code: the docs asset
 * function must ship Swagger UI's files, and the bundle must run as an ES module on Node (the
 * require shim, the bundled AWS SDK) the way Lambda loads it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_ROOT } from '../../lib/function-bundles.js';
import { RouteFunction } from '../../lib/route-function.js';
import { routeById } from '../../shared/routes/index.js';
import { synth, type Synthesized } from './synth.js';

describe('the docs.asset function package', () => {
  let s: Synthesized;
  let assetDir: string;
  beforeAll(() => {
    // At a build's depth under the project, so the bundle's source map finds its sources when it
    // is imported here (lib/function-bundles.ts). No workers: the one esbuild run builds this
    // function alone, and a package is the same whatever is built beside it (bundle-budget.test.ts).
    mkdirSync(BUILD_ROOT, { recursive: true });
    s = synth(
      { routes: [routeById('docs.asset')], workers: [] },
      { bundle: true, outdir: mkdtempSync(join(BUILD_ROOT, 'test-')) },
    );
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- the stack made this child with new RouteFunction
    const fn = (s.stack.routeStacks[0]!.node.findChild('docs.asset') as RouteFunction).function;
    const code = (fn.node.defaultChild as lambda.CfnFunction).code as { s3Key: string };
    assetDir = join(s.app.outdir, `asset.${code.s3Key.replace(/\.zip$/, '')}`);
  }, 120_000);
  // The settings the stack gives the function, with the package directory standing in for
  // /var/task; put back afterwards, since a worker process runs other test files too.
  const settings: Record<string, string> = {
    TABLE_NAME: 'table',
    BUCKET_NAME: 'bucket',
    EVENT_BUS_NAME: 'bus',
    USER_POOL_ID: 'us-east-1_example',
    USER_POOL_CLIENT_ID: 'client',
  };
  const saved = new Map<string, string | undefined>();
  afterAll(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(s.app.outdir, { recursive: true, force: true });
  });

  it('holds index.mjs with the ESM require shim, its source map and the Swagger UI files', () => {
    const index = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
    expect(index.startsWith("import { createRequire } from 'module';")).toBe(true);
    expect(existsSync(join(assetDir, 'index.mjs.map'))).toBe(true);
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
      expect(existsSync(join(assetDir, file)), file).toBe(true);
    }
  });

  it('loads as an ES module and serves the packaged stylesheet', async () => {
    for (const [name, value] of Object.entries({ ...settings, DOCS_ASSETS_DIR: assetDir })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    const { handler } = (await import(pathToFileURL(join(assetDir, 'index.mjs')).href)) as {
      handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
    };
    const event = {
      resource: '/docs/{asset}',
      path: '/docs/swagger-ui.css',
      httpMethod: 'GET',
      headers: {},
      multiValueHeaders: {},
      pathParameters: { asset: 'swagger-ui.css' },
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'bundle-test', stage: 'test', identity: { sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayProxyEvent;
    const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
    const result = await handler(event, context);
    expect(result.statusCode).toBe(200);
    const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
    expect(body).toContain('.swagger-ui');
  });
});
