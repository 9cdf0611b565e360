/**
 * The local stack with the metering proxy in front of DynamoDB Local (shared/local/dynamodb-meter.ts),
 * for the scripts that count a request's DynamoDB calls (bin/bench-telemetry-cost.ts,
 * bin/bench-hazard-cost.ts, bin/bench-kev-cost.ts, bin/bench-cost-growth.ts): an HTTP server on a
 * free port, a JSON caller, a new organisation's token, and the tally of what one step called.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmationLinkMailed } from './local-mail.js';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';

export interface MeteredStack {
  url: string;
  // Properties, not methods: the scripts take them off the stack (`const { api } = stack`).
  /** A JSON request, its answer read as `T`; throws on a status of 300 or more. */
  api: <T = unknown>(method: string, path: string, token: string | undefined, body?: unknown) => Promise<T>;
  /** The calls `send` made, by operation. */
  tallyOf: (send: () => Promise<unknown>) => Promise<Tally>;
  /** A new organisation of the portal (`<label> <tag>`), and its administrator's access token. */
  signUp(label: string): Promise<string>;
  /** The same, with the new tenant's id. */
  signUpTenant(label: string): Promise<{ token: string; tenantId: string; email: string }>;
  /** The bootstrap administrator's access token (SUPER_ADMIN: plans, every tenant). */
  adminToken(): Promise<string>;
  /** The proxy: its tally, the sizes of the items written, and whether it counts. */
  meter: DynamoDbMeter;
  stop(): Promise<void>;
}

export async function startMeteredStack(name: string): Promise<MeteredStack> {
  process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
  const { startLocalStack } = await import('../shared/local/stack.js');
  const { startDynamoDbMeter } = await import('../shared/local/dynamodb-meter.js');
  const dataDir = mkdtempSync(join(tmpdir(), `gatehouse-${name}-`));
  let meter: DynamoDbMeter | undefined;
  const stack = await startLocalStack({
    dataDir,
    persist: false,
    workers: false,
    dynamodbFront: async (endpoint: string) => {
      meter = await startDynamoDbMeter(endpoint);
      return meter;
    },
  });
  const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
  const { startHttpServer } = await import('../shared/local/http-server.js');
  // The local adapters (the audit seal's key among them): with no workers, nothing else installs them.
  await (await import('../shared/local/compose.js')).installLocalAdapters();
  await ensureLocalAdmin(localAdminFromEnv());
  const server = await startHttpServer({ port: 0 });
  const metered: MeteredStack = {
    url: server.url,
    meter: meter!,
    async api<T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
      const res = await fetch(new URL(path, server.url), {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    async tallyOf(send) {
      await meter!.settle();
      meter!.reset();
      await send();
      await meter!.settle();
      return meter!.snapshot();
    },
    async signUp(label) {
      return (await metered.signUpTenant(label)).token;
    },
    async signUpTenant(label) {
      const tag = Date.now().toString(36);
      const email = `${label.toLowerCase()}-${tag}@bench.example`;
      const password = `${label}-${tag}-Pass1`;
      const org = await metered.api<{ tenant_id: string }>('POST', '/api/v1/portal/register', undefined, {
        email,
        password,
        organization_name: `${label} ${tag}`,
      });
      await metered.api('POST', await confirmationLinkMailed(join(dataDir, 'mail'), email), undefined);
      const login = await metered.api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, {
        email,
        password,
      });
      return { token: login.access_token, tenantId: org.tenant_id, email };
    },
    async adminToken() {
      const { email, password } = localAdminFromEnv();
      return (
        await metered.api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, { email, password })
      ).access_token;
    },
    async stop() {
      await server.close();
      await meter?.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return metered;
}

const weight = (t: Tally) => Object.values(t).reduce((s, o) => s + o.calls * 1000 + o.writeUnits + o.readUnits, 0);

/** The median of several tallies of one request, by calls first, then units. */
export function medianTally(tallies: readonly Tally[]): Tally {
  return [...tallies].sort((a, b) => weight(a) - weight(b))[Math.floor(tallies.length / 2)]!;
}

/** One line: the calls by operation, and with `units` the read and write units billed. */
export function showTally(label: string, t: Tally, units = false): void {
  const calls = Object.entries(t).map(([op, o]) => `${op} ${o.calls}`);
  const total = Object.values(t).reduce((s, o) => s + o.calls, 0);
  const billed = Object.values(t).reduce((s, o) => ({ r: s.r + o.readUnits, w: s.w + o.writeUnits }), { r: 0, w: 0 });
  console.log(
    `${label}: ${total} calls (${calls.join(', ')})${units ? `; ${billed.r.toFixed(1)} RRU, ${billed.w.toFixed(1)} WRU` : ''}`,
  );
}
