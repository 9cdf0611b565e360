/**
 * Every function's bundle, built as `cdk synth` builds it, within its budget against the floor (a
 * handler that only sends one GetCommand with the DynamoDB document client, same settings): the
 * median at most the floor + 285 KB, none past the floor + 720 KB. And what a bundle must not
 * carry: Ajv's schema compiler (validators are compiled at build time) and the deprecated
 * `punycode` module (DEP0040 at every cold start). The figures themselves, and import times, are
 * printed by the benchmark (bin/bench-cold-start.ts), not asserted here.
 *
 * The functions' bundles are the local bundles (lib/local-bundles.ts), which the `bundles` project
 * serves: in `npm test` that project's stack synthesizes them beside the tests, and this file waits
 * for that set (buildOnce, lib/built-directory.ts) rather than building a second one; it builds
 * only the two reference bundles.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeById } from '../../shared/routes/index.js';
import { workerById } from '../../shared/workers.js';
import { BUNDLE_BUDGET_KB, buildFunctions, median, stackBundles, type Bundles } from '../support/bundles.js';

const KB = 1024;

describe('function bundles', () => {
  let bundles: Bundles;
  beforeAll(() => {
    bundles = stackBundles();
  }, 900_000);
  // The reference bundles only: the local bundles stay for the next run.
  afterAll(() => bundles?.dispose());

  it('builds one bundle per route and worker, each with its source map', () => {
    expect(bundles.functions.length).toBeGreaterThan(70);
    for (const b of bundles.functions) expect(readFileSync(`${b.file}.map`, 'utf8').length, b.name).toBeGreaterThan(0);
  });

  it('the same sources give the same packages: another build of three of them hashes each alike', () => {
    // Asset hashes come from the output (lib/function-bundles.ts): a build in another folder, of
    // other functions beside them, must not change a byte, or every synth would redeploy everything.
    // (The full set is the local bundles, of another stage: the stage names resources only.)
    const picked = ['health', 'docs.asset', 'incidents.create'];
    const again = buildFunctions({ routes: picked.map(routeById), workers: [workerById('publish-events')] });
    try {
      const assetOf = (list: Bundles['functions'], name: string) => basename(list.find((b) => b.name === name)!.dir);
      for (const name of [...picked, 'publish-events']) {
        expect(assetOf(again.functions, name), name).toBe(assetOf(bundles.functions, name));
      }
    } finally {
      again.dispose();
    }
  }, 300_000);

  it('every bundle loads as an ES module on Node, as Lambda loads it', () => {
    // One fresh process imports every bundle in turn and names those that throw at import (a
    // CommonJS dependency reaching for `__filename` did, and no test that runs the source saw it).
    const script = [
      'globalThis.awslambda={streamifyResponse:(f)=>f,HttpResponseStream:{from:(s)=>s}};',
      'const failed=[];',
      'for (const [name,url] of JSON.parse(process.argv[1])) { try { await import(url); } catch (e) { failed.push(`${name}: ${e}`); } }',
      'process.stdout.write(JSON.stringify(failed));',
    ].join('\n');
    const list = JSON.stringify(bundles.functions.map((b) => [b.name, pathToFileURL(b.file).href]));
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, list], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'us-east-1',
        TABLE_NAME: 'table',
        BUCKET_NAME: 'bucket',
        EVENT_BUS_NAME: 'bus',
        USER_POOL_ID: 'us-east-1_example',
        USER_POOL_CLIENT_ID: 'client',
        GATEHOUSE_STAGE: 'test',
      },
      timeout: 300_000,
    });
    expect(run.status, run.stderr.slice(0, 2000)).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
  }, 300_000);

  it(`the median bundle is at most the floor + ${BUNDLE_BUDGET_KB.median} KB, and none is more than the floor + ${BUNDLE_BUDGET_KB.each} KB`, () => {
    const floor = bundles.floor.bytes;
    const sizes = bundles.functions.map((b) => b.bytes);
    // 100 KB until issue 36 gave every route the paging of lists (about 1.9 KB) and the schemas
    // their tagged unions (about 1.2 KB at the median), and the plan gate its routes; 108 KB until
    // issue 37 put Powertools Logger and Metrics in every bundle (about 39 KB, 8 KB of it won back
    // elsewhere), which took the ceiling from 550 KB to 580 KB as well; 140 and 580 KB until issue
    // 37 put Powertools Tracer, with the X-Ray SDK, in every bundle (128 KB); 270 KB until issue 38
    // put the tenant wall in every route's bundle (9.6 KB; the ceiling 710 KB until then):
    // docs/architecture.md.
    expect(median(sizes), `median vs floor ${Math.round(floor / KB)} KB`).toBeLessThanOrEqual(
      floor + BUNDLE_BUDGET_KB.median * KB,
    );
    const over = bundles.functions
      .filter((b) => b.bytes > floor + BUNDLE_BUDGET_KB.each * KB)
      .map((b) => `${b.name}: ${Math.round(b.bytes / KB)} KB`);
    expect(over).toEqual([]);
  });

  it('exactly the functions whose bundle makes MACs with the audit key declare it (grants.audit)', () => {
    // kms:GenerateMac, kms:VerifyMac and AUDIT_KEY_ID come with grants.audit (shared/iam.ts,
    // lib/grants.ts), a declaration; what a function does is in its bundle. esbuild keeps only the
    // code a handler reaches, and the MAC calls (shared/db/audit/kms-mac.ts) are reached only by
    // writing an audit entry or checking seals: the bundle's metafile says whether it holds them.
    const wrong: string[] = [];
    for (const b of bundles.functions) {
      const meta = JSON.parse(readFileSync(b.metafile, 'utf8')) as {
        outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
      };
      const inputs = Object.values(meta.outputs)[0]!.inputs;
      const macs = (inputs['shared/db/audit/kms-mac.ts']?.bytesInOutput ?? 0) > 0;
      const grants = b.kind === 'worker' ? workerById(b.name).grants : routeById(b.name).grants;
      if (macs !== (grants.audit !== undefined))
        wrong.push(`${b.name}: MAC calls ${macs}, grants.audit ${grants.audit}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no bundle carries a schema compiler or the deprecated punycode module', () => {
    for (const b of bundles.functions) {
      const code = readFileSync(b.file, 'utf8');
      // A message of Ajv's compiler (ajv/dist/compile); standalone validators have none.
      expect(code.includes('unknown keyword'), `${b.name} carries Ajv's compiler`).toBe(false);
      expect(/["'](node:)?punycode["']/.test(code), `${b.name} requires punycode`).toBe(false);
    }
  });

  it("a bundle validates with the standalone validators built into it: a bad parameter is the contract's 422", async () => {
    const docsAsset = bundles.functions.find((b) => b.name === 'docs.asset')!;
    const { handler } = (await import(pathToFileURL(docsAsset.file).href)) as {
      handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
    };
    const asset = 'x'.repeat(65);
    const event = {
      resource: '/docs/{asset}',
      path: `/docs/${asset}`,
      httpMethod: 'GET',
      headers: {},
      pathParameters: { asset },
      queryStringParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'budget-test', identity: { sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayProxyEvent;
    const result = await handler(event, {
      awsRequestId: 'budget-test',
      getRemainingTimeInMillis: () => 10_000,
    } as unknown as Context);
    expect(result.statusCode).toBe(422);
    expect(JSON.parse(result.body)).toEqual({
      detail: [{ loc: ['path', 'asset'], msg: expect.any(String), type: 'maxLength' }],
    });
  });
});
