/**
 * Traces as a deployed function sends them (docs/observability.md#traces): a route's bundle, built
 * as `cdk synth` builds it, runs in a plain Node process with what Lambda gives a traced function
 * (AWS_EXECUTION_ENV, LAMBDA_TASK_ROOT, `_HANDLER`, a sampled `_X_AMZN_TRACE_ID`, the stack's
 * Powertools variables) and AWS_XRAY_DAEMON_ADDRESS pointing at a UDP socket here: the X-Ray
 * daemon's stand-in, receiving the documents the X-Ray SDK sends. One request reads DynamoDB Local
 * with an API key; its handler subsegment and its DynamoDB calls must arrive.
 */
import { spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { powertoolsEnvironment } from '../../lib/function.js';
import { call, registerTenant } from '../support/api.js';
import { ensureLocalBundles, type BundledFunction } from '../../lib/local-bundles.js';

interface TraceDocument {
  name: string;
  id: string;
  trace_id: string;
  parent_id?: string;
  type?: string;
  namespace?: string;
  annotations?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  aws?: { operation?: string; table_name?: string; table_names?: string[] };
  subsegments?: TraceDocument[];
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Every document in a daemon datagram (`{"format":"json","version":1}` then the segment), nested ones included. */
function documentsOf(datagram: string): TraceDocument[] {
  const body = datagram.slice(datagram.indexOf('\n') + 1);
  const flat = (d: TraceDocument): TraceDocument[] => [d, ...(d.subsegments ?? []).flatMap(flat)];
  return flat(JSON.parse(body) as TraceDocument);
}

/** Runs the bundle's handler once in a fresh Node process with Lambda's environment; its answer. */
function invokeInLambdaEnv(
  bundle: BundledFunction,
  env: Record<string, string>,
  event: unknown,
): Promise<{ statusCode: number; body: string }> {
  const script = [
    'const { handler } = await import(process.argv[1]);',
    "const context = { awsRequestId: 'trace-test', functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, getRemainingTimeInMillis: () => 10000 };",
    'const result = await handler(JSON.parse(process.argv[2]), context);',
    "process.stdout.write('\\nresult ' + JSON.stringify(result) + '\\n');",
  ].join('\n');
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, pathToFileURL(bundle.file).href, JSON.stringify(event)],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((done, fail) =>
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('result '));
      if (code !== 0 || !line) fail(new Error(`the bundle failed (${code}):\n${err.slice(0, 2000)}`));
      else done(JSON.parse(line.slice('result '.length)) as { statusCode: number; body: string });
    }),
  );
}

describe('traces of a deployed route', () => {
  let bundle: BundledFunction;
  let daemon: Socket;
  const received: string[] = [];
  beforeAll(async () => {
    // The route's bundle as cdk synth builds it: the local bundles (lib/local-bundles.ts), which
    // this project's global setup has built (or found) for the stack it serves.
    bundle = ensureLocalBundles().functions.find((fn) => fn.id === 'environments.list')!;
    daemon = createSocket('udp4');
    daemon.on('message', (message) => received.push(message.toString('utf8')));
    await new Promise<void>((ready) => daemon.bind(0, '127.0.0.1', ready));
  }, 900_000);
  afterAll(() => {
    daemon?.close();
  });

  it('sends the handler subsegment, annotated with the route and the tier, and a subsegment per DynamoDB call', async () => {
    const org = await registerTenant('Traced', { plan: 'pro' });
    const minted = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'traced', role: 'VIEWER' },
    });
    expect(minted.status).toBe(201);
    const apiKey = minted.body.api_key as string;

    const traceId = `1-${Math.floor(Date.now() / 1000).toString(16)}-${hex(12)}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      ...inject('localEnv'),
      // The service's log lines go where the test run's do.
      ...(process.env.LOG_FILE ? { LOG_FILE: process.env.LOG_FILE } : {}),
      // What the stack sets on every function, and what Lambda adds for a traced invocation.
      ...powertoolsEnvironment({ level: 'info', sampleRate: 0 }),
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      AWS_LAMBDA_FUNCTION_NAME: 'Gatehouse-test-environments-list',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      LAMBDA_TASK_ROOT: bundle.dir,
      _HANDLER: 'index.handler',
      _X_AMZN_TRACE_ID: `Root=${traceId};Parent=${hex(8)};Sampled=1`,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
    };
    const result = await invokeInLambdaEnv(bundle, env, {
      resource: '/api/v1/environments',
      path: '/api/v1/environments',
      httpMethod: 'GET',
      headers: { 'x-api-key': apiKey },
      multiValueHeaders: {},
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'trace-test', stage: 'test', identity: { sourceIp: '203.0.113.7' } },
    });
    expect(result.statusCode, result.body).toBe(200);

    // The SDK sends each subsegment as it closes; the process has ended, so all have been sent.
    await expect.poll(() => received.length).toBeGreaterThan(0);
    const documents = received.flatMap(documentsOf);
    for (const d of documents) expect(d.trace_id).toBe(traceId);

    const handler = documents.find((d) => d.name === '## index.handler');
    expect(handler, JSON.stringify(documents.map((d) => d.name))).toBeDefined();
    expect(handler!.annotations).toEqual({
      route: 'environments.list',
      tier: 'pro',
      ColdStart: true,
      Service: 'gatehouse',
    });
    // Neither the tenant nor the answer (POWERTOOLS_TRACER_CAPTURE_RESPONSE=false) is in the trace's handler part.
    expect(JSON.stringify(handler)).not.toContain(org.tenantId);
    expect(handler!.metadata).toBeUndefined();

    const calls = documents.filter((d) => d.name === 'DynamoDB');
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(c.namespace).toBe('aws');
      expect(c.parent_id).toBe(handler!.id);
      expect(c.aws?.table_names ?? [c.aws?.table_name]).toEqual([env.TABLE_NAME]);
    }
    // The caller's key is read (with its tenant), then the environments listed.
    const operations = calls.map((c) => c.aws?.operation);
    expect(operations).toContain('BatchGetItem');
    expect(operations).toContain('Query');
  });
});
