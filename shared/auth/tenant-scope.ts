/**
 * The tenant a request acts in. It comes from the credential; a `tenant_id` in the path, query or
 * body may only name the caller's own tenant, except for SUPER_ADMIN. Any other tenant is
 * answered exactly as an unknown one (404, same body), so ids of other tenants reveal nothing.
 */
import { getTenant } from '../db/tenants.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from './principal.js';

export const TENANT_NOT_FOUND = 'Tenant not found';

export async function tenantScope(principal: Principal, requested?: string | null): Promise<string> {
  if (!requested || requested === principal.tenantId) return principal.tenantId;
  if (principal.role !== 'SUPER_ADMIN') throw new NotFoundError(TENANT_NOT_FOUND);
  if (!(await getTenant(requested))) throw new NotFoundError(TENANT_NOT_FOUND);
  return requested;
}
