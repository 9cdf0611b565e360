/**
 * Turns a request's credential (a bearer token or an API key) into a Principal. The user's role
 * and active flag, the key and the tenant's status are read from the table on every request, so a
 * role change, a deactivation, a deletion, a revoked key or a suspended tenant takes effect on the
 * next call. They are read in one BatchGetItem, together with whatever the route will look up in
 * the caller's tenant (`prefetch`): the route finds those in `Prefetched` instead of reading again.
 */
import { apiKeyFrom, apiKeyKey } from '../db/api-keys.js';
import { readItems, type ItemKey, type Prefetched } from '../db/read-batch.js';
import { tenantFrom, tenantKey } from '../db/tenants.js';
import { userFrom, userKey } from '../db/users.js';
import { apiKeyIds, checkApiKey, lowerRole, planOf } from '../domain/accounts/index.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { IdentityUnavailableError, verifyBearer } from '../adapters/jwt.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { asTenant } from '../tenant-scope.js';
import { credentialTenant } from './tenant.js';
import type { Principal } from './principal.js';

export interface Credentials {
  authorization?: string;
  apiKey?: string;
  sourceIp: string;
}

/** Keys a route reads in the caller's tenant, read with the caller. */
export type Prefetch = (tenantId: TenantId) => ItemKey[];

export interface Authenticated {
  principal: Principal;
  /** The caller's items and the route's prefetched ones. */
  read: Prefetched;
}

const INVALID_TOKEN = 'Invalid or expired token';
const INVALID_KEY = 'Invalid API key';

export async function authenticate(creds: Credentials, prefetch?: Prefetch): Promise<Authenticated> {
  if (creds.apiKey !== undefined && creds.authorization !== undefined) {
    // Two credentials could name two tenants; which one wins must never be a guess.
    throw new UnauthorizedError('Send one credential: a bearer token or an API key, not both');
  }
  if (creds.apiKey !== undefined) return authenticateApiKey(creds.apiKey, creds.sourceIp, prefetch);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(creds.authorization ?? '');
  if (!match?.[1]) throw new UnauthorizedError('Not authenticated');
  let claims;
  try {
    claims = await verifyBearer(match[1]);
  } catch (err) {
    // Keys that cannot be fetched say nothing of the token: an outage, not a refusal.
    if (hasCause(err, IdentityUnavailableError)) throw new IdentityUnavailableError('keys unavailable');
    throw new UnauthorizedError(INVALID_TOKEN);
  }
  // The token's signature vouches for its tenant: the route's reads can go in the same trip, all
  // as that tenant (shared/tenant-scope.ts).
  const read = await asTenant(claims.tenantId, () =>
    readItems([
      userKey(claims.tenantId, claims.userId),
      tenantKey(claims.tenantId),
      ...(prefetch?.(credentialTenant(claims.tenantId)) ?? []),
    ]),
  );
  const { user, tenant } = activeUser(read, claims.tenantId, claims.userId, INVALID_TOKEN);
  return {
    principal: {
      userId: user.user_id,
      tenantId: user.tenant_id,
      role: user.role,
      email: user.email,
      via: 'jwt',
      requestsPerMinute: planOf(tenant.plan).limits.requests_per_minute,
      plan: tenant.plan,
    },
    read,
  };
}

async function authenticateApiKey(apiKey: string, sourceIp: string, prefetch?: Prefetch): Promise<Authenticated> {
  const ids = apiKeyIds(apiKey);
  if (!ids) throw new UnauthorizedError(INVALID_KEY);
  // The key names its tenant and creator; they and the route's reads in that tenant go in one
  // trip, and serve nothing unless the key is good. A key minted before it named its creator
  // reads the creator (whose role now caps the key's) in a second trip.
  // Read as the tenant the key names: a key of another tenant's reaches nothing of it.
  const read = await asTenant(ids.tenantId, () =>
    readItems([
      apiKeyKey(ids.tenantId, ids.keyId),
      tenantKey(ids.tenantId),
      ...(ids.creatorId ? [userKey(ids.tenantId, ids.creatorId)] : []),
      ...(prefetch?.(credentialTenant(ids.tenantId)) ?? []),
    ]),
  );
  const key = apiKeyFrom(read, ids.tenantId, ids.keyId);
  if (!checkApiKey(key, apiKey, sourceIp)) throw new UnauthorizedError(INVALID_KEY);
  await asTenant(key.tenant_id, () => readItems([userKey(key.tenant_id, key.created_by)], read));
  const { user: creator, tenant } = activeUser(read, key.tenant_id, key.created_by, INVALID_KEY);
  return {
    principal: {
      requestsPerMinute: planOf(tenant.plan).limits.requests_per_minute,
      userId: creator.user_id,
      tenantId: key.tenant_id,
      role: lowerRole(key.role, creator.role),
      email: creator.email,
      via: 'api_key',
      apiKeyId: key.key_id,
      plan: tenant.plan,
      ...(key.tier ? { developerTier: key.tier, keyRateLimit: key.rate_limit ?? null } : {}),
    },
    read,
  };
}

/** The user and their tenant, if the user exists and is active and the tenant is not suspended. */
function activeUser(read: Prefetched, tenantId: string, userId: string, refusal: string) {
  const user = userFrom(read, tenantId, userId);
  const tenant = tenantFrom(read, tenantId);
  if (!user || !user.active || !tenant) throw new UnauthorizedError(refusal);
  if (tenant.status !== 'active' && user.role !== 'SUPER_ADMIN') {
    throw new ForbiddenError('This tenant is suspended');
  }
  return { user, tenant };
}

/** Whether `err`, or an error it was caused by, is a `kind` (a verifier may wrap its fetcher's error). */
function hasCause(err: unknown, kind: new (...args: never[]) => Error): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof kind) return true;
  return false;
}
