/**
 * Turns a request's credential into a Principal. The role and the active flag are read from the
 * table on every request, so a role change or a deactivation takes effect on the next call.
 */
import { getTenant } from '../db/tenants.js';
import { getUser } from '../db/users.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { verifyBearer } from './jwt.js';
import type { Principal } from './principal.js';

export interface Credentials {
  authorization?: string;
  apiKey?: string;
}

export async function authenticate(creds: Credentials): Promise<Principal> {
  if (creds.apiKey !== undefined) {
    // API keys arrive with the identity work; until then no key is valid.
    throw new UnauthorizedError('Invalid API key');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(creds.authorization ?? '');
  if (!match?.[1]) throw new UnauthorizedError('Not authenticated');
  let claims;
  try {
    claims = await verifyBearer(match[1]);
  } catch {
    throw new UnauthorizedError('Invalid or expired token');
  }
  const [user, tenant] = await Promise.all([getUser(claims.tenantId, claims.userId), getTenant(claims.tenantId)]);
  if (!user || !user.active) throw new UnauthorizedError('Invalid or expired token');
  if (!tenant) throw new UnauthorizedError('Invalid or expired token');
  if (tenant.status !== 'active' && user.role !== 'SUPER_ADMIN') {
    throw new ForbiddenError('This tenant is suspended');
  }
  return { userId: user.user_id, tenantId: user.tenant_id, role: user.role, email: user.email, via: 'jwt' };
}
