/**
 * A worker stopped in the local runtime (`GATEHOUSE_STOPPED_WORKERS`, read by `npm start`), as a
 * worker that is down in AWS: its queue fills, nothing reads it. The live status names the worker's
 * component degraded and `/agents` the agent behind it; `npm start` again on the same data, the
 * worker runs, drains its queue, and both clear. Each wait is a bound (a minute, as the issue
 * asks), not a speed target.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, confirmRegistration } from '../support/api.js';
import { npmStart, type NpmStart } from '../support/npm-start.js';

const runs: NpmStart[] = [];
afterAll(async () => {
  await Promise.all(runs.map((r) => r.stop()));
});

async function waitFor<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end)
      throw new Error(`not within ${timeoutMs / 1000} s: ${what}; last: ${JSON.stringify(value).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

const component = (server: string) => async () =>
  (
    (await call('GET', '/api/v1/live-status', { server })).body.components as {
      name: string;
      status: string;
      detail: string | null;
    }[]
  ).find((c) => c.name === 'worker:send-notifications')!;
const notifier = (server: string, token: string) => async () =>
  (await call('GET', '/api/v1/agents/notifier', { server, token })).body as {
    status: string;
    reason: string | null;
    backlog: number;
  };

describe('a worker stopped in the local runtime', () => {
  it('shows its agent degraded in /agents and its component in /live-status within a minute; started again, both clear', async () => {
    const first = await npmStart({ GATEHOUSE_STOPPED_WORKERS: 'send-notifications' });
    runs.push(first);
    const email = `drill-${Date.now()}@example.com`;
    const password = 'Drill-pass-1';
    expect(
      (
        await call('POST', '/api/v1/portal/register', {
          server: first.url,
          body: { email, password, organization_name: 'Drill Co' },
        })
      ).status,
    ).toBe(201);
    await confirmRegistration(email, first);
    const token = (await call('POST', '/api/v1/portal/login', { server: first.url, body: { email, password } })).body
      .access_token as string;
    expect((await notifier(first.url, token)()).status).not.toBe('degraded');

    // A confirmed incident: its notification waits on the queue nobody reads.
    const incident = await call('POST', '/api/v1/incidents', {
      server: first.url,
      token,
      body: { title: 'Gate 2 forced', severity: 'high' },
    });
    expect(incident.status).toBe(201);
    const down = await waitFor(component(first.url), (c) => c.status === 'degraded', 'the component degraded', 60_000);
    expect(down.detail).toMatch(/wait with no run|waits with no run/);
    const agent = await waitFor(
      notifier(first.url, token),
      (a) => a.status === 'degraded',
      'the agent degraded',
      60_000,
    );
    expect(agent.backlog).toBeGreaterThan(0);
    expect((await call('GET', '/api/v1/live-status', { server: first.url })).body.status).toBe('degraded');

    // Started again, on the same data, with the worker: it drains its queue and both clear.
    await first.stop({ keepData: true });
    const second = await npmStart({}, first.dataDir);
    runs.push(second);
    const up = await waitFor(
      component(second.url),
      (c) => c.status === 'operational',
      'the component operational again',
      60_000,
    );
    expect(up.detail).toBeNull();
    const back = await waitFor(
      notifier(second.url, token),
      (a) => a.status === 'active',
      'the agent active again',
      60_000,
    );
    expect(back).toMatchObject({ reason: null, backlog: 0 });
  }, 300_000);
});

/** The PID of the cognito-local of a data directory (it runs in `<data dir>/cognito`). */
function cognitoPid(dataDir: string): number {
  for (const line of execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('cognito-local'))) {
    const pid = Number(line.trim().split(/\s+/)[0]);
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === join(dataDir, 'cognito')) return pid;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('no cognito-local of this data directory is running');
}

describe('a dependency that stops answering', () => {
  it('shows as an outage of its component at the next poll, names no address, and clears when it answers again', async () => {
    const run = await npmStart();
    runs.push(run);
    const identity = async () => {
      const body = (await call('GET', '/api/v1/live-status', { server: run.url })).body;
      return {
        overall: body.status as string,
        identity: (body.components as { name: string; status: string; detail: string | null }[]).find(
          (c) => c.name === 'identity',
        )!,
      };
    };
    expect((await identity()).identity.status).toBe('operational');
    // Frozen, not killed: the process lives (nothing starts it again) and answers nothing.
    const pid = cognitoPid(run.dataDir);
    process.kill(pid, 'SIGSTOP');
    try {
      // The answer is kept 10 s: the next computation after that sees the probe time out.
      const down = await waitFor(
        identity,
        (s) => s.identity.status === 'outage',
        'the identity component down',
        30_000,
      );
      expect(down.identity.detail).toBe('not answering');
      expect(down.overall).toBe('degraded');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const up = await waitFor(
      identity,
      (s) => s.identity.status === 'operational',
      'the identity component back',
      30_000,
    );
    expect(up.identity.detail).toBeNull();
  }, 180_000);
});
