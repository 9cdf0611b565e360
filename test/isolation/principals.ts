/**
 * The principals of tenant B the suite calls as: each role's bearer token, API keys, and every way
 * a credential can be invalid. The invalid ones are forged from a real B token, so each is wrong
 * for exactly one reason (checked by the suite: the same claims, validly signed, are accepted).
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Role } from '../../shared/routes/types.js';

export interface PrincipalSpec {
  /** e.g. `B bearer OPERATOR`, `invalid: expired token`. */
  name: string;
  /** Whether the service must accept the credential. */
  valid: boolean;
  role?: Role;
  via?: 'jwt' | 'api_key';
}

export interface Principal extends PrincipalSpec {
  token?: string;
  apiKey?: string;
  /** Extra headers, e.g. the client address for an allowlisted key. */
  headers?: Record<string, string>;
}

/** Valid principals of B, known before seeding so the suite can name its tests. */
export const VALID_PRINCIPALS: readonly PrincipalSpec[] = [
  { name: 'B bearer TENANT_ADMIN', valid: true, role: 'TENANT_ADMIN', via: 'jwt' },
  { name: 'B bearer OPERATOR', valid: true, role: 'OPERATOR', via: 'jwt' },
  { name: 'B bearer VIEWER', valid: true, role: 'VIEWER', via: 'jwt' },
  { name: 'B api key TENANT_ADMIN', valid: true, role: 'TENANT_ADMIN', via: 'api_key' },
  { name: 'B api key VIEWER', valid: true, role: 'VIEWER', via: 'api_key' },
];

export const INVALID_PRINCIPAL_NAMES = [
  'invalid: no credential',
  'invalid: garbage bearer',
  'invalid: expired token (real key)',
  'invalid: token signed by another key (same kid)',
  'invalid: alg none token',
  'invalid: revoked api key',
  'invalid: malformed api key',
  'invalid: api key with a wrong secret',
  "invalid: B's api key re-addressed to tenant A",
  'invalid: allowlisted api key from another address',
] as const;

/** The client address B's allowlisted key is bound to (TEST-NET-3). */
export const ALLOWED_IP = '203.0.113.7';
/** Any other address (TEST-NET-2). */
export const OTHER_IP = '198.51.100.23';

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeJwt(token: string): DecodedJwt {
  const [h, p] = token.split('.');
  if (!h || !p) throw new Error('not a JWT');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>,
  };
}

export function signRs256(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const data = `${b64u({ ...header, alg: 'RS256' })}.${b64u(payload)}`;
  return `${data}.${sign('sha256', Buffer.from(data), key).toString('base64url')}`;
}

export function unsignedJwt(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  return `${b64u({ ...header, alg: 'none' })}.${b64u(payload)}.`;
}

interface CognitoLocalKey {
  jwk: { kid: string; n: string };
  pem: string;
}

/** cognito-local's signing key: the very key that signs the tokens the service accepts locally. */
export function cognitoLocalKey(): { key: KeyObject; kid: string; n: string } {
  const pkg = createRequire(import.meta.url).resolve('cognito-local/package.json');
  const file = join(dirname(pkg), 'lib', 'keys', 'cognitoLocal.private.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as CognitoLocalKey;
  return { key: createPrivateKey(parsed.pem), kid: parsed.jwk.kid, n: parsed.jwk.n };
}

/** A fresh RSA key the service has never seen. */
export function strangerKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

const hex = (uuid: string) => uuid.replace(/-/g, '');

/** A key in the service's format (`ghk_` + key id + tenant id + creator id + secret) with a secret that was never issued. */
export function wrongSecretKey(realKey: string): string {
  return `${realKey.slice(0, -43)}${randomBytes(32).toString('base64url')}`;
}

/** A real key with its tenant part replaced by another tenant's id. */
export function readdressedKey(realKey: string, tenantId: string): string {
  if (!/^ghk_[0-9a-f]{64}/.test(realKey)) throw new Error(`unexpected API key format: ${realKey.slice(0, 8)}...`);
  return `${realKey.slice(0, 36)}${hex(tenantId)}${realKey.slice(68)}`;
}
