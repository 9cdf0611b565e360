/**
 * Registration timing benchmark (a script, not a test): shows that `POST /api/v1/portal/register`
 * takes as long for an address that has an account as for a new one, so its time does not tell
 * which (docs/identity.md#registering). With the argument `keys`, the same for the free developer
 * keys of `POST /v1/auth/keys` (docs/developer-api.md).
 *
 * It runs the local stack and server in this process (the server taking each call's client address
 * from X-Forwarded-For, as the tests' does), registers and confirms one account, then sends
 * BENCH_REPEAT requests for new addresses and as many for the existing address, taking turns,
 * each from its own client address (the per-address limits count 10 and 5 a minute), after
 * BENCH_WARM untimed ones of each. It prints, for each kind, the median, the 10th and 90th percentiles and
 * the mean of the handler's time (the local server's Server-Timing) and of the time a client
 * sees, and the difference of the medians. Times on a shared machine are noisy: compare the
 * difference with the spread.
 *
 *   npx tsx bin/bench-register.ts [keys]
 *
 * Options (env): BENCH_REPEAT (default 60), BENCH_WARM (default 5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmationLinkMailed } from './local-mail.js';

const repeat = Number(process.env.BENCH_REPEAT ?? 60);
const warm = Number(process.env.BENCH_WARM ?? 5);
const keys = process.argv[2] === 'keys';
/** What is timed: a registration, or a free developer key. */
const request = keys
  ? { path: '/v1/auth/keys', body: (email: string) => ({ email, tier: 'free' }) }
  : {
      path: '/api/v1/portal/register',
      body: (email: string) => ({ email, password: 'Other-pass-1', organization_name: 'Bench' }),
    };

process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const { startLocalStack } = await import('../shared/local/stack.js');
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-register-'));
const stack = await startLocalStack({ dataDir, persist: false, schedules: false });
const { startHttpServer } = await import('../shared/local/http-server.js');
const server = await startHttpServer({ port: 0, trustForwardedFor: true });
const base = server.url;
const mailDir = join(dataDir, 'mail');

let clients = 0;
/** A client address of its own for each call: 10.x.y.z. */
const clientIp = () => {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};

async function post(path: string, body?: unknown): Promise<{ status: number; handlerMs: number; wallMs: number }> {
  const started = performance.now();
  const res = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientIp() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.text();
  const wallMs = performance.now() - started;
  const handlerMs = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { status: res.status, handlerMs, wallMs };
}

try {
  const tag = Date.now().toString(36);
  const existing = `bench-${tag}@register.example`;
  const password = `Bench-${tag}-Pass1`;
  const made = await post('/api/v1/portal/register', { email: existing, password, organization_name: 'Bench' });
  if (made.status !== 201) throw new Error(`registering ${existing} answered ${made.status}`);
  const confirmed = await post(await confirmationLinkMailed(mailDir, existing));
  if (confirmed.status !== 200) throw new Error(`confirming ${existing} answered ${confirmed.status}`);

  const times = {
    new: [] as { handlerMs: number; wallMs: number }[],
    existing: [] as { handlerMs: number; wallMs: number }[],
  };
  for (let i = 0; i < warm + repeat; i++) {
    const attempt = async (kind: 'new' | 'existing') => {
      const email = kind === 'new' ? `new-${tag}-${i}@register.example` : existing;
      const r = await post(request.path, request.body(email));
      if (r.status !== 201) throw new Error(`${request.path} for ${email} answered ${r.status}`);
      if (i >= warm) times[kind].push(r);
    };
    // Taking turns, the first of each pair alternating, so drift in the machine's load hits both.
    const order: ('new' | 'existing')[] = i % 2 ? ['new', 'existing'] : ['existing', 'new'];
    for (const kind of order) await attempt(kind);
  }

  const quantile = (xs: number[], q: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  const line = (xs: number[]) =>
    `median ${quantile(xs, 0.5).toFixed(1)} ms, p10 ${quantile(xs, 0.1).toFixed(1)}, p90 ${quantile(xs, 0.9).toFixed(1)}, mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)}`;
  console.log(`${repeat} requests to ${request.path} of each kind (after ${warm} untimed), taking turns:`);
  for (const measure of ['handlerMs', 'wallMs'] as const) {
    const label = measure === 'handlerMs' ? 'handler (Server-Timing)' : 'client';
    const n = times.new.map((t) => t[measure]);
    const e = times.existing.map((t) => t[measure]);
    console.log(`${label}:`);
    console.log(`  new address:      ${line(n)}`);
    console.log(`  existing address: ${line(e)}`);
    console.log(`  difference of the medians (existing - new): ${(quantile(e, 0.5) - quantile(n, 0.5)).toFixed(1)} ms`);
  }
} finally {
  await server.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
