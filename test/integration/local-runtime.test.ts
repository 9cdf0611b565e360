/**
 * The local runtime behind `npm start` and the test run: the HTTP server that plays API Gateway
 * (events, results, its own error answers, streaming through the awslambda stand-in), and the
 * local AWS stand-ins (persistence across restarts, the provisioned user pool and its tokens).
 */
import {
  CognitoIdentityProviderClient,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JavaMissingError, startDynamoDbLocal } from '../../shared/local/dynamodb-local.js';
import { MAX_BODY_BYTES, startHttpServer, type LocalHttpServer, type LogLine } from '../../shared/local/http-server.js';
import { startLocalStack, type LocalStack } from '../../shared/local/stack.js';
import type { RouteDef } from '../../shared/routes/types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function fixture(
  id: string,
  method: RouteDef['method'],
  path: string,
  file: string,
  extra: Partial<RouteDef> = {},
): RouteDef {
  return {
    id,
    method,
    path,
    handler: `test/fixtures/local-runtime/${file}`,
    access: 'public',
    tenant: 'none',
    tag: 'test',
    summary: id,
    response: { status: 200, description: 'ok' },
    grants: {},
    ...extra,
  };
}

const TEST_ROUTES: RouteDef[] = [
  fixture('things.parts.get', 'GET', '/things/{thing_id}/parts/{part}', 'echo.ts'),
  fixture('things.parts.post', 'POST', '/things/{thing_id}/parts/{part}', 'echo.ts'),
  fixture('plain', 'GET', '/plain', 'echo.ts', { timeoutSeconds: 3 }),
  // Declared before the literal route on purpose: the literal must still win.
  fixture('events.get', 'GET', '/events/{event_id}', 'echo.ts'),
  fixture('events.delete', 'DELETE', '/events/{event_id}', 'echo.ts'),
  fixture('events.stream', 'GET', '/events/stream', 'stream.ts', { streaming: true }),
  fixture('events.middy', 'GET', '/middy/stream', 'middy-stream.ts', { streaming: true }),
  fixture('binary', 'GET', '/binary', 'binary.ts'),
  fixture('throws', 'GET', '/throws', 'throws.ts'),
  fixture('malformed', 'GET', '/malformed', 'malformed.ts'),
  // A streaming handler on a route not flagged streaming: broken in AWS, so refused here too.
  fixture('mismatch', 'GET', '/mismatch', 'stream.ts'),
];

interface RawResponse {
  status: number;
  rawHeaders: string[];
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, because fetch merges repeated request headers into one. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: string[]; body?: Buffer | string } = {},
): Promise<RawResponse> {
  return new Promise((done, fail) => {
    // A raw header list replaces Node's defaults, Host included.
    const headers = ['Host', new URL(url).host, ...(options.headers ?? [])];
    const req = httpRequest(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8')) as Record<string, any>;

describe('local HTTP server: API Gateway REST proxy events and results', () => {
  let server: LocalHttpServer;
  const logged: LogLine[] = [];
  beforeAll(async () => {
    server = await startHttpServer({
      routes: TEST_ROUTES,
      rootDir: ROOT,
      maxBodyBytes: 64 * 1024,
      log: (line) => logged.push(line),
    });
  });
  afterAll(() => server.close());

  it('maps path parameters (decoded), query, repeated headers and the request context', async () => {
    const before = Date.now();
    const res = await rawRequest(`${server.url}/things/a%20b/parts/x%2Fy?q=1&multi=a&multi=b&empty=`, {
      headers: ['X-Custom', 'v', 'X-Rep', '1', 'X-Rep', '2', 'User-Agent', 'local-test'],
    });
    expect(res.status).toBe(200);
    const { event, context } = json(res);
    expect(event).toMatchObject({
      resource: '/things/{thing_id}/parts/{part}',
      path: '/things/a%20b/parts/x%2Fy',
      httpMethod: 'GET',
      pathParameters: { thing_id: 'a b', part: 'x/y' },
      queryStringParameters: { q: '1', multi: 'b', empty: '' },
      multiValueQueryStringParameters: { q: ['1'], multi: ['a', 'b'], empty: [''] },
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        resourcePath: '/things/{thing_id}/parts/{part}',
        httpMethod: 'GET',
        stage: 'local',
        identity: { sourceIp: '127.0.0.1', userAgent: 'local-test' },
      },
    });
    // Headers as the client spelled them; the single-value map keeps the last repeat.
    expect(event.headers['X-Custom']).toBe('v');
    expect(event.headers['X-Rep']).toBe('2');
    expect(event.multiValueHeaders['X-Rep']).toEqual(['1', '2']);
    expect(event.requestContext.requestId).toMatch(UUID);
    expect(event.requestContext.requestTimeEpoch).toBeGreaterThanOrEqual(before);
    expect(event.requestContext.requestTimeEpoch).toBeLessThanOrEqual(Date.now());
    // The Lambda context: function named after the route, its own request id, a deadline.
    expect(context.functionName).toBe('things.parts.get');
    expect(context.awsRequestId).toMatch(UUID);
    expect(context.awsRequestId).not.toBe(event.requestContext.requestId);
    expect(context.remaining).toBeGreaterThan(0);
    expect(context.remaining).toBeLessThanOrEqual(10_000);
  });

  it('sends null query maps and path parameters when there are none, as API Gateway does', async () => {
    const { event, context } = json(await rawRequest(`${server.url}/plain`));
    expect(event.queryStringParameters).toBeNull();
    expect(event.multiValueQueryStringParameters).toBeNull();
    expect(event.pathParameters).toBeNull();
    expect(context.remaining).toBeLessThanOrEqual(3_000); // the route's own timeout
  });

  it('passes a text body as a string and binary content types base64-encoded', async () => {
    const text = await rawRequest(`${server.url}/things/1/parts/2`, {
      method: 'POST',
      headers: ['Content-Type', 'application/json'],
      body: '{"name":"Zoë"}',
    });
    expect(json(text).event).toMatchObject({ body: '{"name":"Zoë"}', isBase64Encoded: false, httpMethod: 'POST' });

    const bytes = Buffer.from([0, 1, 2, 128, 254, 255]);
    for (const type of [
      'application/octet-stream',
      'audio/wav',
      'application/zip',
      'multipart/form-data; boundary=x',
    ]) {
      const binary = await rawRequest(`${server.url}/things/1/parts/2`, {
        method: 'POST',
        headers: ['Content-Type', type],
        body: bytes,
      });
      expect(json(binary).event, type).toMatchObject({ body: bytes.toString('base64'), isBase64Encoded: true });
    }
  });

  it('writes the result: status, headers, multiValueHeaders, and a base64 body decoded', async () => {
    const res = await rawRequest(`${server.url}/plain`);
    expect(res.headers['x-single']).toBe('one');
    const multi = res.rawHeaders.flatMap((v, i) =>
      res.rawHeaders[i - 1]?.toLowerCase() === 'x-multi' && i % 2 === 1 ? [v] : [],
    );
    expect(multi).toEqual(['a', 'b']);

    const binary = await rawRequest(`${server.url}/binary`);
    expect(binary.status).toBe(200);
    expect(binary.headers['content-type']).toBe('application/octet-stream');
    expect([...binary.body]).toEqual([0, 1, 2, 253, 254, 255]);
  });

  it('prefers a literal segment over a parameter: /events/stream is not /events/{event_id}', async () => {
    const byId = await rawRequest(`${server.url}/events/123`);
    expect(json(byId).event.pathParameters).toEqual({ event_id: '123' });
    expect(json(byId).context.functionName).toBe('events.get');

    const stream = await rawRequest(`${server.url}/events/stream?count=1&gap_ms=0`);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(stream.headers['x-function']).toBe('events.stream');

    // The stream resource has GET only, whatever /events/{event_id} allows.
    const del = await rawRequest(`${server.url}/events/stream`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET');
  });

  it('answers 404 and 405 itself, in JSON, with X-Request-Id', async () => {
    const notFound = await rawRequest(`${server.url}/nowhere`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers['content-type']).toBe('application/json');
    expect(json(notFound)).toEqual({ detail: 'Not Found' });
    expect(notFound.headers['x-request-id']).toMatch(UUID);

    const notAllowed = await rawRequest(`${server.url}/things/1/parts/2`, { method: 'PUT', body: '{}' });
    expect(notAllowed.status).toBe(405);
    expect(json(notAllowed)).toEqual({ detail: 'Method Not Allowed' });
    expect(notAllowed.headers.allow).toBe('GET, POST');
    expect(notAllowed.headers['x-request-id']).toMatch(UUID);
  });

  it('takes a body up to the limit and answers 413 beyond it', async () => {
    const limit = 64 * 1024;
    const atLimit = await rawRequest(`${server.url}/things/1/parts/2`, {
      method: 'POST',
      headers: ['Content-Type', 'text/plain'],
      body: 'x'.repeat(limit),
    });
    expect(atLimit.status).toBe(200);
    const over = await rawRequest(`${server.url}/things/1/parts/2`, {
      method: 'POST',
      headers: ['Content-Type', 'text/plain'],
      body: 'x'.repeat(limit + 1),
    });
    expect(over.status).toBe(413);
    expect(json(over).detail).toMatch(/too large/);
    expect(over.headers['x-request-id']).toMatch(UUID);
  });

  it('answers 500 naming the request id, without internals, when a handler throws', async () => {
    const res = await rawRequest(`${server.url}/throws`);
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'];
    expect(json(res)).toEqual({ detail: `Internal Server Error (request ${String(id)})` });
    expect(res.body.toString()).not.toContain('secret');
    // The fault is in the log, under the same request id.
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'error', request_id: id, error: 'secret internals must not leak' }),
    );
  });

  it('refuses a streaming handler on a route the route table does not flag as streaming', async () => {
    const res = await rawRequest(`${server.url}/mismatch`);
    expect(res.status).toBe(500);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        request_id: res.headers['x-request-id'],
        msg: expect.stringContaining('streamifyResponse'),
      }),
    );
  });

  it('answers 502 to a result that is not a proxy result', async () => {
    const res = await rawRequest(`${server.url}/malformed`);
    expect(res.status).toBe(502);
    expect(json(res).detail).toContain(String(res.headers['x-request-id']));
  });
});

describe('local HTTP server: response streaming through the awslambda stand-in', () => {
  let server: LocalHttpServer;
  const logged: LogLine[] = [];
  beforeAll(async () => {
    server = await startHttpServer({ routes: TEST_ROUTES, rootDir: ROOT, log: (line) => logged.push(line) });
  });
  afterAll(() => server.close());

  /** Reads server-sent events as they arrive, noting when each came. */
  async function readEvents(res: Response) {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const received: { n: number; writtenAt: number; receivedAt: number }[] = [];
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = JSON.parse(/^data: (.*)$/m.exec(message)?.[1] ?? 'null') as { n: number; written_at: number };
        expect(message).toMatch(new RegExp(`^id: ${data.n}\nevent: tick\n`));
        received.push({ n: data.n, writtenAt: data.written_at, receivedAt: Date.now() });
      }
    }
    return received;
  }

  /** Streaming, not buffering: every event reached the client before the next one was written. */
  function expectOneByOne(received: { receivedAt: number; writtenAt: number }[]) {
    for (let i = 0; i + 1 < received.length; i++) {
      expect(received[i]!.receivedAt).toBeLessThan(received[i + 1]!.writtenAt);
    }
  }

  it('delivers server-sent events one by one, each before the next is written', async () => {
    const res = await fetch(`${server.url}/events/stream?count=4&gap_ms=200`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const received = await readEvents(res);
    expect(received.map((r) => r.n)).toEqual([1, 2, 3, 4]);
    expectOneByOne(received);
  });

  it('streams a middy handler in streamifyResponse mode the same way', async () => {
    const res = await fetch(`${server.url}/middy/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-chain')).toBe('middy');
    const received = await readEvents(res);
    expect(received.map((r) => r.n)).toEqual([1, 2, 3]);
    expectOneByOne(received);
  });

  it('answers 500 in JSON when a streaming handler fails before its first byte', async () => {
    const res = await fetch(`${server.url}/events/stream?fail=before`);
    expect(res.status).toBe(500);
    const id = res.headers.get('x-request-id');
    expect(await res.json()).toEqual({ detail: `Internal Server Error (request ${id})` });
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', request_id: id }));
  });

  it('ends the response stream when the client goes away', async () => {
    const state = globalThis as { __streamClientLeftAt?: number };
    delete state.__streamClientLeftAt;
    const abort = new AbortController();
    const res = await fetch(`${server.url}/events/stream?count=50&gap_ms=50`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read(); // the first event
    abort.abort();
    await expect.poll(() => state.__streamClientLeftAt, { timeout: 3000 }).toBeGreaterThan(1);
    expect(state.__streamClientLeftAt).toBeLessThan(50);
  });
});

describe('local HTTP server of the test run: every route of the route table', () => {
  const baseUrl = () => inject('baseUrl');

  it('serves a real handler, and answers unknown paths, other methods and big bodies itself', async () => {
    const health = await rawRequest(`${baseUrl()}/health`);
    expect(health.status).toBe(200);

    const notFound = await rawRequest(`${baseUrl()}/api/v1/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(json(notFound)).toEqual({ detail: 'Not Found' });

    const notAllowed = await rawRequest(`${baseUrl()}/health`, { method: 'DELETE' });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.allow).toBe('GET');
    expect(json(notAllowed)).toEqual({ detail: 'Method Not Allowed' });

    // API Gateway's 10 MB payload limit.
    const tooBig = await rawRequest(`${baseUrl()}/api/v1/portal/login`, {
      method: 'POST',
      headers: ['Content-Type', 'application/json'],
      body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
    });
    expect(tooBig.status).toBe(413);
    expect(typeof json(tooBig).detail).toBe('string');
    expect(tooBig.headers['x-request-id']).toMatch(UUID);
  });

  it('exposes the stack variables to the workers', () => {
    const env = inject('localEnv');
    for (const name of [
      'TABLE_NAME',
      'BUCKET_NAME',
      'EVENT_BUS_NAME',
      'USER_POOL_ID',
      'USER_POOL_CLIENT_ID',
      'DYNAMODB_ENDPOINT',
      'S3_ENDPOINT',
      'COGNITO_ENDPOINT',
    ]) {
      expect(env[name], name).toBeTruthy();
      expect(process.env[name], name).toBe(env[name]);
    }
    expect(process.env.GATEHOUSE_STAGE).toBe('local');
  });
});

describe('DynamoDB Local', () => {
  it('keeps data across a restart with -dbPath, and stops by its own PID', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ddb-'));
    const options = { dbPath: join(dir, 'db'), logFile: join(dir, 'ddb.log') };
    const first = await startDynamoDbLocal(options);
    try {
      const client = new DynamoDBClient({
        region: 'us-east-1',
        endpoint: first.endpoint,
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      });
      await client.send(
        new CreateTableCommand({
          TableName: 'items',
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
        }),
      );
      await client.send(new PutItemCommand({ TableName: 'items', Item: { PK: { S: 'k' }, v: { S: 'kept' } } }));
      client.destroy();
    } finally {
      await first.stop();
    }
    expect(() => process.kill(first.pid, 0)).toThrow();

    const second = await startDynamoDbLocal(options);
    try {
      // Other credentials and region on purpose: -sharedDb keeps one database for all.
      const client = new DynamoDBClient({
        region: 'eu-west-1',
        endpoint: second.endpoint,
        credentials: { accessKeyId: 'c', secretAccessKey: 'd' },
      });
      const got = await client.send(new GetItemCommand({ TableName: 'items', Key: { PK: { S: 'k' } } }));
      client.destroy();
      expect(got.Item?.v?.S).toBe('kept');
    } finally {
      await second.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what to install when Java is missing', async () => {
    const saved = process.env.JAVA_HOME;
    process.env.JAVA_HOME = '/nonexistent-java-home';
    try {
      const logFile = join(tmpdir(), `gatehouse-nojava-${process.pid}.log`);
      const error = await startDynamoDbLocal({ logFile }).catch((e: unknown) => e);
      rmSync(logFile, { force: true });
      expect(error).toBeInstanceOf(JavaMissingError);
      expect((error as Error).message).toContain('apt-get install -y openjdk-17-jre-headless');
    } finally {
      if (saved === undefined) delete process.env.JAVA_HOME;
      else process.env.JAVA_HOME = saved;
    }
  });
});

describe('local stack', () => {
  it('provisions the user pool once, finds it again after a restart, and issues the expected tokens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-stack-'));
    const stacks: LocalStack[] = [];
    try {
      const first = await startLocalStack({ dataDir, persist: true, setProcessEnv: false });
      stacks.push(first);
      const env = first.env;
      expect(first.created).toEqual({ table: true, bucket: true, userPool: true });
      const saved = JSON.parse(readFileSync(join(dataDir, 'local-stack.json'), 'utf8')) as Record<string, string>;
      expect(saved).toMatchObject({ userPoolId: env.USER_POOL_ID, userPoolClientId: env.USER_POOL_CLIENT_ID });

      // A user as the domain code creates one: email as username, tenant as immutable attribute.
      const cognito = new CognitoIdentityProviderClient({
        region: env.AWS_REGION,
        endpoint: env.COGNITO_ENDPOINT,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      });
      const email = 'someone@example.com';
      await cognito.send(
        new AdminCreateUserCommand({
          UserPoolId: env.USER_POOL_ID,
          Username: email,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
            { Name: 'custom:tenant_id', Value: '0198f0a0-0000-7000-8000-000000000001' },
          ],
        }),
      );
      await cognito.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: env.USER_POOL_ID,
          Username: email,
          Password: 'Some-password-1',
          Permanent: true,
        }),
      );
      const auth = await cognito.send(
        new InitiateAuthCommand({
          ClientId: env.USER_POOL_CLIENT_ID,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: 'Some-password-1' },
        }),
      );
      cognito.destroy();
      const claims = (token: string | undefined) =>
        JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      const id = claims(auth.AuthenticationResult?.IdToken);
      expect(id).toMatchObject({
        iss: env.JWT_ISSUER,
        aud: env.USER_POOL_CLIENT_ID,
        token_use: 'id',
        email,
        'custom:tenant_id': '0198f0a0-0000-7000-8000-000000000001',
      });
      expect(id.sub).toMatch(UUID);
      expect(Number(id.exp) - Number(id.iat)).toBe(3600);
      const access = claims(auth.AuthenticationResult?.AccessToken);
      expect(access).toMatchObject({
        iss: env.JWT_ISSUER,
        client_id: env.USER_POOL_CLIENT_ID,
        token_use: 'access',
        sub: id.sub,
      });
      expect(access.aud).toBeUndefined();
      expect(env.JWT_ISSUER).toBe(`${env.COGNITO_ENDPOINT}/${env.USER_POOL_ID}`);
      const jwks = (await (await fetch(env.JWKS_URI!)).json()) as { keys: { kid: string }[] };
      expect(jwks.keys.map((k) => k.kid)).toContain('CognitoLocal');

      const ddb = new DynamoDBClient({
        region: env.AWS_REGION,
        endpoint: env.DYNAMODB_ENDPOINT,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      });
      await ddb.send(
        new PutItemCommand({
          TableName: env.TABLE_NAME,
          Item: { PK: { S: 'TENANT#x' }, SK: { S: 'META' }, name: { S: 'kept' } },
        }),
      );
      ddb.destroy();
      await first.stop();

      const second = await startLocalStack({ dataDir, persist: true, setProcessEnv: false });
      stacks.push(second);
      expect(second.created).toEqual({ table: false, bucket: false, userPool: false });
      expect(second.env.USER_POOL_ID).toBe(env.USER_POOL_ID);
      expect(second.env.USER_POOL_CLIENT_ID).toBe(env.USER_POOL_CLIENT_ID);
      // The issuer is the first start's, whatever port cognito-local has now; the keys are where it is.
      expect(second.env.JWT_ISSUER).toBe(env.JWT_ISSUER);
      expect(second.env.JWKS_URI).toBe(`${second.env.COGNITO_ENDPOINT}/${env.USER_POOL_ID}/.well-known/jwks.json`);
      const ddb2 = new DynamoDBClient({
        region: env.AWS_REGION,
        endpoint: second.env.DYNAMODB_ENDPOINT,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      });
      const item = await ddb2.send(
        new GetItemCommand({ TableName: env.TABLE_NAME, Key: { PK: { S: 'TENANT#x' }, SK: { S: 'META' } } }),
      );
      ddb2.destroy();
      expect(item.Item?.name?.S).toBe('kept');
      const cognito2 = new CognitoIdentityProviderClient({
        region: env.AWS_REGION,
        endpoint: second.env.COGNITO_ENDPOINT,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      });
      const again = await cognito2.send(
        new InitiateAuthCommand({
          ClientId: env.USER_POOL_CLIENT_ID,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: 'Some-password-1' },
        }),
      );
      cognito2.destroy();
      expect(claims(again.AuthenticationResult?.IdToken).iss).toBe(second.env.JWT_ISSUER);
    } finally {
      // stop() is idempotent: the first stack is stopped already unless an assertion failed.
      await Promise.all(stacks.map((stack) => stack.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('npm start (bin/local.ts)', () => {
  function startLocal(env: Record<string, string>) {
    // As `npm start` runs it: tsx as a loader in the one process, so a signal reaches bin/local.ts
    // itself (the tsx CLI relays signals through a child and, under load, can kill it instead).
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    return { child, exited, out: () => stdout, err: () => stderr };
  }

  /** PIDs of processes whose command line or working directory mentions `dir` (Linux /proc). */
  function processesUsing(dir: string): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
      try {
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        if (cmdline.includes(dir) || readlinkSync(`/proc/${entry}/cwd`).startsWith(dir)) pids.push(Number(entry));
      } catch {
        // gone meanwhile
      }
    }
    return pids;
  }

  it('prints the listening line, serves the routes, and stops its children on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
    const local = startLocal({ PORT: '0', GATEHOUSE_DATA_DIR: dataDir });
    try {
      await expect
        .poll(() => local.out(), { timeout: 60_000, interval: 100 })
        .toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
      const url = /listening on (\S+)/.exec(local.out())![1]!;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      // Each stand-in is named as it comes up, with its time, before the service listens.
      for (const part of [
        'DynamoDB Local http',
        's3rver http',
        'cognito-local http',
        'mail \\(SMTP\\) smtp',
        'workers running',
      ])
        expect(local.err()).toMatch(new RegExp(`^ +\\d+\\.\\d s  ${part}`, 'm'));
      expect(processesUsing(dataDir).length).toBeGreaterThan(0); // DynamoDB Local (-dbPath)
      local.child.kill('SIGTERM');
      expect(await local.exited).toBe(0);
      expect(processesUsing(dataDir)).toEqual([]);
    } finally {
      local.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('stops with its children when npm, which started it, is stopped with SIGTERM', async () => {
    // npm runs the script through a shell; SIGTERM to npm ends the shell, not the server under it.
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-npm-stop-'));
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', GATEHOUSE_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toMatch(/^listening on http:\/\/\S+$/m);
      const url = /listening on (\S+)/.exec(out)![1]!;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      npm.kill('SIGTERM');
      await expect.poll(() => processesUsing(dataDir), { timeout: 30_000, interval: 250 }).toEqual([]);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      for (const pid of processesUsing(dataDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('exits 1 with an install hint, not a stack trace, when Java is missing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-nojava-'));
    try {
      const local = startLocal({ PORT: '0', GATEHOUSE_DATA_DIR: dataDir, JAVA_HOME: '/nonexistent-java-home' });
      expect(await local.exited).toBe(1);
      expect(local.err()).toContain('apt-get install -y openjdk-17-jre-headless');
      expect(local.err()).not.toMatch(/^\s+at /m);
      expect(processesUsing(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
