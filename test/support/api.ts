/**
 * A small HTTP client for end-to-end tests against the local server the test run started
 * (test/support/global-setup.ts). Real HTTP, real handlers, real local AWS stand-ins.
 */
import { inject } from 'vitest';

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
}

export const baseUrl = (): string => inject('baseUrl');

export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(path, baseUrl());
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...opts.headers };
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
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
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

export async function login(email: string, password: string): Promise<string> {
  const res = await call('POST', '/api/v1/portal/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}
