/**
 * Seeds the two tenants of the isolation suite through the API, as a customer would:
 * registration (/portal/register), users with passwords (POST /api/v1/users) who log in, API keys
 * (POST /api/v1/portal/api-keys), and one resource of every kind in the fixture registry. Every
 * name, email and free-text field of A carries A's marker, so any of A's data in a response to B
 * is found by a plain substring search.
 */
import { randomUUID } from 'node:crypto';
import { asAdmin, call, confirmRegistration, login, type ApiResponse, type CallOptions } from '../support/api.js';
import { creationOrder, FIXTURES, type FixtureTenant } from './fixtures.js';
import {
  ALLOWED_IP,
  cognitoLocalKey,
  decodeJwt,
  OTHER_IP,
  readdressedKey,
  signRs256,
  strangerKey,
  unsignedJwt,
  wrongSecretKey,
  type Principal,
} from './principals.js';
import { uniqueToken } from './schema-sample.js';

export interface Account {
  userId: string;
  email: string;
  password: string;
  token: string;
}

export interface SeededTenant {
  label: 'A' | 'B';
  marker: string;
  tenantId: string;
  admin: Account;
  operator: Account;
  viewer: Account;
  /** Fixture kind -> the id of this tenant's resource of that kind. */
  ids: Record<string, string>;
  /** Lower-cased strings that must never reach another tenant: marker, ids, emails, keys, tokens. */
  sensitive: Set<string>;
  /** Accounts that must log in at the end. */
  logins: { email: string; password: string }[];
  /** The tenant's API keys by purpose. */
  apiKeys: Record<string, { keyId: string; key: string }>;
}

export interface World {
  A: SeededTenant;
  B: SeededTenant;
  /** Every principal of B, valid and invalid. */
  principals: Principal[];
  /** Facts the suite checks about the forged credentials (each is wrong for one reason only). */
  forgery: {
    realClaims: Record<string, unknown>;
    /** The expired token's claims, validly signed and not expired: must be accepted. */
    freshTwin: string;
    jwksKids: string[];
    jwksModulusMatches: boolean;
    tokenKid: unknown;
  };
}

const password = () => `Iso-${uniqueToken()}-Pw9`;

function expectStatus(res: ApiResponse, status: number, what: string): void {
  if (res.status !== status)
    throw new Error(`seeding: ${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
}

async function account(email: string, pw: string, userId: string): Promise<Account> {
  return { userId, email, password: pw, token: await login(email, pw) };
}

export async function seedTenant(label: 'A' | 'B'): Promise<SeededTenant> {
  const marker = `MARKER-${label}-${Math.random().toString(36).slice(2, 10)}`;
  const lower = marker.toLowerCase();
  const sensitive = new Set<string>([lower]);
  const emailOf = (what: string) => `${what}.${lower}.${uniqueToken()}@isolation.example`;
  const nameOf = (what: string) => `${marker} ${what}`;

  // Registration: the tenant and its TENANT_ADMIN.
  const adminEmail = emailOf('admin');
  const adminPassword = password();
  const reg = await call<{ tenant_id: string; user_id: string }>('POST', '/api/v1/portal/register', {
    body: {
      email: adminEmail,
      password: adminPassword,
      organization_name: nameOf('Security Ltd'),
      name: nameOf('admin'),
    },
  });
  expectStatus(reg, 201, `registering tenant ${label}`);
  await confirmRegistration(adminEmail);
  const tenantId = reg.body.tenant_id;
  const admin = await account(adminEmail, adminPassword, reg.body.user_id);

  // Enterprise plan: no per-tenant request rate (free allows 100 a minute; the suite makes
  // thousands), no user limit, and every feature, so no route is closed to the suite by the plan.
  // Isolation does not depend on the plan.
  const upgrade = await call('PATCH', `/api/v1/tenants/${tenantId}`, {
    token: await asAdmin(),
    body: { plan: 'enterprise' },
  });
  expectStatus(upgrade, 200, `moving tenant ${label} to the enterprise plan`);

  const adminCall = (method: string, path: string, opts: CallOptions = {}) =>
    call(method, path, { token: admin.token, ...opts });
  const logins = [{ email: adminEmail, password: adminPassword }];

  const user = async (role: 'OPERATOR' | 'VIEWER'): Promise<Account> => {
    const email = emailOf(role.toLowerCase());
    const pw = password();
    const res = await call<{ user_id: string }>('POST', '/api/v1/users', {
      token: admin.token,
      body: { email, role, password: pw, name: nameOf(role.toLowerCase()) },
    });
    expectStatus(res, 201, `creating the ${role} of tenant ${label}`);
    logins.push({ email, password: pw });
    return account(email, pw, res.body.user_id);
  };
  const operator = await user('OPERATOR');
  const viewer = await user('VIEWER');

  const ids: Record<string, string> = {};
  const fixtureTenant: FixtureTenant = {
    label,
    marker,
    tenantId,
    ids,
    call: adminCall,
    name: nameOf,
    email: emailOf,
    password,
    remember: (secret) => sensitive.add(secret.toLowerCase()),
    addLogin: (email, pw) => logins.push({ email, password: pw }),
  };
  for (const kind of creationOrder()) {
    try {
      ids[kind] = await FIXTURES[kind]!.create(fixtureTenant);
    } catch (err) {
      throw new Error(`seeding: the ${kind} fixture of tenant ${label}: ${(err as Error).message}`, { cause: err });
    }
    if (FIXTURES[kind]!.owned) sensitive.add(ids[kind].toLowerCase());
  }

  for (const a of [admin, operator, viewer]) {
    sensitive.add(a.userId.toLowerCase());
    sensitive.add(a.email.toLowerCase());
    sensitive.add(a.token.toLowerCase());
  }
  sensitive.add(tenantId.toLowerCase());

  return { label, marker, tenantId, admin, operator, viewer, ids, sensitive, logins, apiKeys: {} };
}

async function mintKey(
  t: SeededTenant,
  purpose: string,
  body: Record<string, unknown>,
): Promise<{ keyId: string; key: string }> {
  const res = await call<{ key_id: string; api_key: string }>('POST', '/api/v1/portal/api-keys', {
    token: t.admin.token,
    body: { name: `${t.marker} ${purpose} key`, ...body },
  });
  expectStatus(res, 201, `minting the ${purpose} key of tenant ${t.label}`);
  const minted = { keyId: res.body.key_id, key: res.body.api_key };
  t.apiKeys[purpose] = minted;
  t.sensitive.add(minted.key.toLowerCase());
  t.sensitive.add(minted.keyId.toLowerCase());
  return minted;
}

/** Whether a credential works: a VIEWER route of its own tenant answers 200. */
async function works(opts: CallOptions): Promise<number> {
  return (await call('GET', '/api/v1/users', opts)).status;
}

export async function seedWorld(): Promise<World> {
  const [A, B] = await Promise.all([seedTenant('A'), seedTenant('B')]);

  // Sequential: keys are listed in mint order, and each mint's audit entry is A's or B's history.
  await mintKey(A, 'A', { role: 'TENANT_ADMIN' });
  const bAdminKey = await mintKey(B, 'TENANT_ADMIN', { role: 'TENANT_ADMIN' });
  const bViewerKey = await mintKey(B, 'VIEWER', { role: 'VIEWER' });
  const revoked = await mintKey(B, 'revoked', { role: 'TENANT_ADMIN' });
  expectStatus(
    await call('GET', '/api/v1/users', { apiKey: revoked.key }),
    200,
    'the key to revoke, before revocation',
  );
  expectStatus(
    await call('DELETE', `/api/v1/portal/api-keys/${revoked.keyId}`, { token: B.admin.token }),
    204,
    'revoking a key of tenant B',
  );
  const allowlisted = await mintKey(B, 'allowlisted', { role: 'TENANT_ADMIN', ip_allowlist: [ALLOWED_IP] });
  const fromAllowed = await works({ apiKey: allowlisted.key, headers: { 'x-forwarded-for': ALLOWED_IP } });
  if (fromAllowed !== 200)
    throw new Error(`seeding: the allowlisted key does not work from ${ALLOWED_IP}: ${fromAllowed}`);

  // Forged bearer tokens, all from the claims of B's TENANT_ADMIN's real ID token.
  const real = decodeJwt(B.admin.token);
  const cognito = cognitoLocalKey();
  const iss = String(real.payload.iss);
  const jwks = (await (await fetch(`${iss}/.well-known/jwks.json`)).json()) as { keys: { kid: string; n: string }[] };
  const published = jwks.keys.find((k) => k.kid === real.header.kid);
  const nowS = Math.floor(Date.now() / 1000);
  const lifetime = Number(real.payload.exp) - Number(real.payload.iat);
  const expiredClaims = {
    ...real.payload,
    auth_time: nowS - 2 * lifetime - 60,
    iat: nowS - 2 * lifetime - 60,
    exp: nowS - lifetime - 60,
  };
  const freshClaims = { ...real.payload, auth_time: nowS - 5, iat: nowS - 5, exp: nowS + lifetime };
  const header = { ...real.header, kid: published?.kid ?? real.header.kid };

  const principals: Principal[] = [
    { name: 'B bearer TENANT_ADMIN', valid: true, role: 'TENANT_ADMIN', via: 'jwt', token: B.admin.token },
    { name: 'B bearer OPERATOR', valid: true, role: 'OPERATOR', via: 'jwt', token: B.operator.token },
    { name: 'B bearer VIEWER', valid: true, role: 'VIEWER', via: 'jwt', token: B.viewer.token },
    { name: 'B api key TENANT_ADMIN', valid: true, role: 'TENANT_ADMIN', via: 'api_key', apiKey: bAdminKey.key },
    { name: 'B api key VIEWER', valid: true, role: 'VIEWER', via: 'api_key', apiKey: bViewerKey.key },
    { name: 'invalid: no credential', valid: false },
    { name: 'invalid: garbage bearer', valid: false, token: `garbage-${randomUUID()}` },
    { name: 'invalid: expired token (real key)', valid: false, token: signRs256(header, expiredClaims, cognito.key) },
    {
      name: 'invalid: token signed by another key (same kid)',
      valid: false,
      token: signRs256(header, freshClaims, strangerKey()),
    },
    { name: 'invalid: alg none token', valid: false, token: unsignedJwt(header, freshClaims) },
    { name: 'invalid: revoked api key', valid: false, apiKey: revoked.key },
    { name: 'invalid: malformed api key', valid: false, apiKey: 'ghk_not-a-key' },
    { name: 'invalid: api key with a wrong secret', valid: false, apiKey: wrongSecretKey(bAdminKey.key) },
    {
      name: "invalid: B's api key re-addressed to tenant A",
      valid: false,
      apiKey: readdressedKey(bAdminKey.key, A.tenantId),
    },
    {
      name: 'invalid: allowlisted api key from another address',
      valid: false,
      apiKey: allowlisted.key,
      headers: { 'x-forwarded-for': OTHER_IP },
    },
  ];

  return {
    A,
    B,
    principals,
    forgery: {
      realClaims: real.payload,
      freshTwin: signRs256(header, freshClaims, cognito.key),
      jwksKids: jwks.keys.map((k) => k.kid),
      jwksModulusMatches: published?.n === cognito.n,
      tokenKid: real.header.kid,
    },
  };
}

/** Credentials of a principal as call options. */
export function credentials(p: Principal): CallOptions {
  return {
    ...(p.token ? { token: p.token } : {}),
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
  };
}
