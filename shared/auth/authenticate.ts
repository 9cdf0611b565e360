/**
 * Turns a request's credential (a bearer token or an API key) into a Principal. The user's role
 * and active flag, and the tenant's status, are read from the table on every request, so a role
 * change, a deactivation, a deletion or a revoked key takes effect on the next call.
 */
import { getTenant } from '../db/tenants.js';
import { getUser } from '../db/users.js';
import { lowerRole, verifyApiKey } from '../domain/api-keys.js';
import { planOf } from '../domain/plans.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { verifyBearer } from '../adapters/jwt.js';
import type { Principal } from './principal.js';

export interface Credentials {
  authorization?: string;
  apiKey?: string;
  sourceIp: string;
}

const INVALID_TOKEN = 'Invalid or expired token';
const INVALID_KEY = 'Invalid API key';

export async function authenticate(creds: Credentials): Promise<Principal> {
  if (creds.apiKey !== undefined && creds.authorization !== undefined) {
    // Two credentials could name two tenants; which one wins must never be a guess.
    throw new UnauthorizedError('Send one credential: a bearer token or an API key, not both');
  }
  if (creds.apiKey !== undefined) return authenticateApiKey(creds.apiKey, creds.sourceIp);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(creds.authorization ?? '');
  if (!match?.[1]) throw new UnauthorizedError('Not authenticated');
  let claims;
  try {
    claims = await verifyBearer(match[1]);
  } catch {
    throw new UnauthorizedError(INVALID_TOKEN);
  }
  const { user, tenant } = await activeUser(claims.tenantId, claims.userId, INVALID_TOKEN);
  return {
    userId: user.user_id,
    tenantId: user.tenant_id,
    role: user.role,
    email: user.email,
    via: 'jwt',
    requestsPerMinute: planOf(tenant.plan).limits.requests_per_minute,
  };
}

async function authenticateApiKey(apiKey: string, sourceIp: string): Promise<Principal> {
  const key = await verifyApiKey(apiKey, sourceIp);
  if (!key) throw new UnauthorizedError(INVALID_KEY);
  const { user: creator, tenant } = await activeUser(key.tenant_id, key.created_by, INVALID_KEY);
  return {
    requestsPerMinute: planOf(tenant.plan).limits.requests_per_minute,
    userId: creator.user_id,
    tenantId: key.tenant_id,
    role: lowerRole(key.role, creator.role),
    email: creator.email,
    via: 'api_key',
    apiKeyId: key.key_id,
  };
}

/** The user and their tenant, if the user exists and is active and the tenant is not suspended. */
async function activeUser(tenantId: string, userId: string, refusal: string) {
  const [user, tenant] = await Promise.all([getUser(tenantId, userId), getTenant(tenantId)]);
  if (!user || !user.active || !tenant) throw new UnauthorizedError(refusal);
  if (tenant.status !== 'active' && user.role !== 'SUPER_ADMIN') {
    throw new ForbiddenError('This tenant is suspended');
  }
  return { user, tenant };
}
