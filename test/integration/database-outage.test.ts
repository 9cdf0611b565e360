/**
 * A local stand-in dies (cognito-local; DynamoDB Local under concurrent ingest). `npm start` (bin/local.ts, its own data directory)
 * serves batches, some sent with an Idempotency-Key and some with client event ids, while its
 * DynamoDB Local is killed with SIGKILL. Every answer is 201, 503 with Retry-After, or 409 with
 * Retry-After (a retry while a dead attempt still holds its key): never 500. The stack starts
 * DynamoDB Local again by itself and /health recovers without a restart of the server. Every
 * failed batch, retried as it was sent, is then stored, and counting through the API finds each
 * event of every batch exactly once.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, confirmRegistration, type ApiResponse } from '../support/api.js';
import { npmStart, type NpmStart } from '../support/npm-start.js';

const BATCHES = 12;
const PER_BATCH = 50;

let runtime: NpmStart | undefined;
let dataDir: string;
let server: string;

const seconds = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

beforeAll(async () => {
  runtime = await npmStart();
  dataDir = runtime.dataDir;
  server = runtime.url;
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
});

/** The PID of the DynamoDB Local serving this data directory (its -dbPath names it). */
function dynamodbPid(): number {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const line = lines.find((l) => l.includes('DynamoDBLocal.jar') && l.includes(join(dataDir, 'dynamodb')));
  if (!line) throw new Error('no DynamoDB Local of this data directory is running');
  return Number(line.trim().split(/\s+/)[0]);
}

/** The PID of the cognito-local of this data directory (it runs in `<data dir>/cognito`). */
function cognitoPid(): number {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  for (const line of lines.filter((l) => l.includes('cognito-local'))) {
    const pid = Number(line.trim().split(/\s+/)[0]);
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === join(dataDir, 'cognito')) return pid;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('no cognito-local of this data directory is running');
}

describe('cognito-local killed', () => {
  it('a login answers 503 with Retry-After (not 401), and after the stack starts it again logins and earlier tokens work', async () => {
    const tag = randomUUID().slice(0, 8);
    const account = { email: `idp-${tag}@example.com`, password: `Idp-${tag}-Pass1` };
    expect(
      (await call('POST', '/api/v1/portal/register', { server, body: { ...account, organization_name: `Idp ${tag}` } }))
        .status,
    ).toBe(201);
    await confirmRegistration(account.email, runtime);
    const token = (await call('POST', '/api/v1/portal/login', { server, body: account })).body.access_token as string;

    const pid = cognitoPid();
    process.kill(pid, 'SIGKILL');
    await seconds(0.05);
    // Down (starting again takes it a second or more): an outage, not a wrong password.
    const during = await call('POST', '/api/v1/portal/login', { server, body: account });
    expect(during.status, during.text).toBe(503);
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);

    let login: ApiResponse | undefined;
    for (let i = 0; i < 60; i++) {
      login = await call('POST', '/api/v1/portal/login', { server, body: account });
      if (login.status === 200) break;
      await seconds(1);
    }
    expect(login?.status, login?.text).toBe(200);
    expect(cognitoPid()).not.toBe(pid);
    // Same port, same issuer: a token from before still works.
    expect((await call('GET', '/api/v1/users', { server, token })).status).toBe(200);
    expect((await call('GET', '/health', { server })).status).toBe(200);
  }, 120_000);
});

describe('DynamoDB Local killed under concurrent ingest', () => {
  it('answers 503 (never 500), recovers by itself, and every retried batch is stored exactly once', async () => {
    const tag = randomUUID().slice(0, 8);
    const reg = await call('POST', '/api/v1/portal/register', {
      server,
      body: { email: `outage-${tag}@example.com`, password: `Outage-${tag}-Pass1`, organization_name: `Outage ${tag}` },
    });
    expect(reg.status, reg.text).toBe(201);
    await confirmRegistration(`outage-${tag}@example.com`, runtime);
    const login = await call('POST', '/api/v1/portal/login', {
      server,
      body: { email: `outage-${tag}@example.com`, password: `Outage-${tag}-Pass1` },
    });
    const token = login.body.access_token as string;
    const env = (await call('POST', '/api/v1/environments', { server, token, body: { name: 'Pier', type: 'port' } }))
      .body;

    const batches = Array.from({ length: BATCHES }, (_, b) => {
      const clientIds = b % 2 === 1;
      return {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (an optional key is not a Record<string, string>)
        headers: (clientIds ? {} : { 'idempotency-key': randomUUID() }) as Record<string, string>,
        body: {
          events: Array.from({ length: PER_BATCH }, (_, seq) => ({
            type: 'motion.detected',
            environment_id: env.environment_id,
            payload: { batch: b, seq },
            ...(clientIds ? { event_id: v7() } : {}),
          })),
        },
      };
    });
    const send = (b: number) => call('POST', '/api/v1/events/batch', { server, token, ...batches[b]! });

    // All batches at once; the database is killed while they are under way.
    const pid = dynamodbPid();
    const inFlight = batches.map((_, b) => send(b));
    await seconds(0.15);
    process.kill(pid, 'SIGKILL');
    const first = await Promise.all(inFlight);
    // And some more while it is down.
    const during = await Promise.all([send(0), send(1)]);

    for (const res of [...first, ...during]) {
      expect([201, 409, 503], res.text).toContain(res.status);
      if (res.status !== 201) expect(Number(res.headers.get('retry-after')), res.text).toBeGreaterThan(0);
    }
    expect(
      first.filter((r) => r.status !== 201).length + during.filter((r) => r.status !== 201).length,
    ).toBeGreaterThan(0);

    // Started again by the stack itself: /health recovers with no restart of the server.
    let health: ApiResponse | undefined;
    for (let i = 0; i < 60; i++) {
      health = await call('GET', '/health', { server });
      if (health.status === 200) break;
      await seconds(1);
    }
    expect(health?.status, health?.text).toBe(200);
    expect(dynamodbPid()).not.toBe(pid);

    // Each batch retried as it was sent (201 ones too: a retry must store nothing twice).
    for (let b = 0; b < BATCHES; b++) {
      let res = await send(b);
      for (let i = 0; i < 10 && res.status !== 201; i++) {
        await seconds(Number(res.headers.get('retry-after') ?? 1));
        res = await send(b);
      }
      expect(res.status, res.text).toBe(201);
      expect(res.body).toHaveLength(PER_BATCH);
    }

    const seen: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await call('GET', '/api/v1/events', {
        server,
        token,
        query: { environment_id: env.environment_id, limit: 200, offset },
      });
      expect(page.status).toBe(200);
      seen.push(
        ...(page.body as { payload: { batch: number; seq: number } }[]).map(
          (e) => `${e.payload.batch}/${e.payload.seq}`,
        ),
      );
      if (page.body.length < 200) break;
    }
    const expected = batches.flatMap((_, b) => Array.from({ length: PER_BATCH }, (_, seq) => `${b}/${seq}`));
    expect(seen.sort()).toEqual(expected.sort());
  }, 240_000);
});
