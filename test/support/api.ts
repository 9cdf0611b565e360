/**
 * A small HTTP client for end-to-end tests against the local server the test run started
 * (test/support/global-setup.ts). Real HTTP, real handlers, real local AWS stand-ins.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { confirmationLinkMailed } from '../../bin/local-mail.js';
import { confirmationLinkFor } from './mail.js';
import { responseProblems } from './response-schemas.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import type { TenantPlan } from '../../shared/vocabulary/plans.js';

// The test files read answers loosely and check them with `expect` (eslint.config.js, test-files).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- by default an answer's body is whatever JSON came
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  apiKey?: string;
  body?: unknown;
  /** Sent as is, bypassing JSON encoding. */
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Another server than the test run's (a test's own, in its process). */
  server?: string;
}

export const baseUrl = (): string => inject('baseUrl');

/** A private address, different on almost every call. */
export function randomClientIp(): string {
  const r = () => Math.floor(Math.random() * 254) + 1;
  return `10.${r()}.${r()}.${r()}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ApiResponse
export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(path, opts.server ?? baseUrl());
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  // Each call comes from its own client address unless the test names one, so per-IP rate limits
  // (login, registration) count only what a test means them to.
  const headers: Record<string, string> = { 'x-forwarded-for': randomClientIp(), ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.includes('json') && !contentType.includes('ndjson') && text) parsed = JSON.parse(text);
  // Every answer must match what /openapi.json documents for its operation and status. A followed
  // redirect's answer is the target's (the stored object in S3), not the operation's: its 3xx is documented.
  const problems = res.redirected
    ? []
    : await responseProblems(url.origin, method, url.pathname, res.status, contentType, parsed);
  if (problems.length > 0) {
    if (process.env.RESPONSE_SCHEMA_REPORT)
      appendFileSync(process.env.RESPONSE_SCHEMA_REPORT, `${JSON.stringify({ problems, text: text.slice(0, 300) })}\n`);
    else throw new Error(`the answer breaks its documented schema:\n${problems.join('\n')}\n${text.slice(0, 500)}`);
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const ADMIN = {
  email: process.env.GATEHOUSE_ADMIN_EMAIL ?? 'admin@gatehouse.local',
  password: process.env.GATEHOUSE_ADMIN_PASSWORD ?? 'Gatehouse-admin-1',
};

let adminToken: Promise<string> | undefined;

/** A bearer token of the bootstrap SUPER_ADMIN, logged in once per test file. */
export function asAdmin(): Promise<string> {
  adminToken ??= login(ADMIN.email, ADMIN.password);
  return adminToken;
}

/**
 * A call as a client that follows the contract makes it: a 503 (a dependency slow or away: on a
 * loaded test machine, cognito-local) is tried again after its Retry-After, up to three times.
 * For the setup steps every test file runs (registering, confirming, logging in), not for the
 * behaviour under test.
 */
export async function callRetrying503<T = unknown>(
  method: string,
  path: string,
  options: Parameters<typeof call>[2] = {},
): Promise<ApiResponse<T>> {
  for (let attempt = 1; ; attempt++) {
    const res = await call<T>(method, path, options);
    if (res.status !== 503 || attempt > 3) return res;
    const wait = Math.min(Number(res.headers.get('retry-after') ?? 1), 5);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

export async function login(email: string, password: string): Promise<string> {
  const res = await callRetrying503<{ access_token: string }>('POST', '/api/v1/portal/login', {
    body: { email, password },
  });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${res.text}`);
  return res.body.access_token;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What kind each field of an answer is (a UUID, another string, a number, ...): answers that must not tell two cases apart have the same. */
export const shapeOf = (body: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && UUID.test(v) ? 'uuid' : typeof v]),
  );

export interface RegisteredTenant {
  /** As the registration answered it: the tenant this test acts in. */
  tenantId: TenantId;
  userId: string;
  email: string;
  password: string;
  token: string;
}

export interface RegisterOptions {
  /**
   * The plan the tenant is on once registered. Registration makes a free tenant (the contract);
   * any other plan is then set as a platform operator does (`PATCH /api/v1/tenants/{id}` as the
   * SUPER_ADMIN). Defaults to `pro`, which has every feature (docs/plans.md), so a suite tests
   * its feature rather than the plan; a test of the free plan's limits says `free`.
   */
  plan?: TenantPlan;
}

/**
 * Registers a new organisation through the portal as a person does: registers, uses the
 * confirmation link mailed to the address (the local mail folder), and logs its TENANT_ADMIN in;
 * then puts it on `options.plan`.
 */
export async function registerTenant(label = 'Org', options: RegisterOptions = {}): Promise<RegisteredTenant> {
  const plan = options.plan ?? 'pro';
  const tag = Math.random().toString(36).slice(2, 10);
  const email = `admin-${tag}@${label.toLowerCase().replace(/\W/g, '')}.example`;
  const password = `Reg-${tag}-Pass1`;
  const res = await callRetrying503<{ tenant_id: string; user_id: string }>('POST', '/api/v1/portal/register', {
    body: { email, password, organization_name: `${label} ${tag}` },
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  await confirmRegistration(email);
  if (plan !== 'free') await setPlan(res.body.tenant_id, plan);
  return {
    tenantId: systemTenant(res.body.tenant_id),
    userId: res.body.user_id,
    email,
    password,
    token: await login(email, password),
  };
}

/** Puts a tenant on `plan` as a platform operator does; it holds from the tenant's next call. */
export async function setPlan(tenantId: string, plan: TenantPlan): Promise<void> {
  const res = await callRetrying503('PATCH', `/api/v1/tenants/${tenantId}`, {
    token: await asAdmin(),
    body: { plan },
  });
  if (res.status !== 200) throw new Error(`plan change failed: ${res.status} ${res.text}`);
}

/**
 * Uses the latest confirmation link mailed to `email`, as a program does (POST): from the test
 * run's server, or from a server a test started itself (`npmStart`: its URL and data directory).
 */
export async function confirmRegistration(email: string, on?: { url: string; dataDir: string }): Promise<void> {
  const link = on ? await confirmationLinkMailed(join(on.dataDir, 'mail'), email) : await confirmationLinkFor(email);
  const confirmed = await callRetrying503('POST', link, on ? { server: on.url } : {});
  if (confirmed.status !== 200) throw new Error(`confirmation failed: ${confirmed.status} ${confirmed.text}`);
}

/** Creates a user with a password through the API and logs them in. */
export async function createUser(
  adminToken: string,
  role: string,
  extra: Record<string, unknown> = {},
): Promise<{ userId: string; email: string; password: string; token: string }> {
  const tag = Math.random().toString(36).slice(2, 10);
  const email = `${role.toLowerCase()}-${tag}@users.example`;
  const password = `User-${tag}-Pass1`;
  const res = await call<{ user_id: string }>('POST', '/api/v1/users', {
    token: adminToken,
    body: { email, role, password, ...extra },
  });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${res.text}`);
  return { userId: res.body.user_id, email, password, token: await login(email, password) };
}
