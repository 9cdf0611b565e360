/**
 * The tenant a request acts in, decided once at the edge (the handler chain, from the route's
 * `tenant` declaration). It comes from the credential; a `tenant_id` in the path, query or body
 * may only name the caller's own tenant, except for SUPER_ADMIN. Any other tenant is answered
 * exactly as an unknown one (404, same body), so ids of other tenants reveal nothing.
 */
import { getTenant } from '../db/tenants.js';
import { asTenant, enterEachTenant, enterTenant } from '../tenant-scope.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from '../vocabulary/actor.js';
import type { StreamScope } from '../domain/events/index.js';
import { TENANT_NOT_FOUND, type TenantId } from '../vocabulary/tenant.js';

/** The caller's own tenant. */
export const ownTenant = (principal: Principal): TenantId => credentialTenant(principal.tenantId);

/**
 * The tenant a credential names: a verified token's, or an API key's own (checked by the read
 * that fetches the key, and nothing read for it is used unless the key is good).
 */
export const credentialTenant = (tenantId: string): TenantId => tenantId as TenantId;

/** The tenant `requested` names, if the caller may act in it; the caller's own when none is named. */
export async function resolveTenant(principal: Principal, requested?: string | null): Promise<TenantId> {
  if (!requested || requested === principal.tenantId) return ownTenant(principal);
  if (principal.role !== 'SUPER_ADMIN') throw new NotFoundError(TENANT_NOT_FOUND);
  if (!(await getTenant(requested))) throw new NotFoundError(TENANT_NOT_FOUND);
  return requested as TenantId;
}

/**
 * Decides whose events a stream watches, and runs the rest of the invocation as them (the route
 * finds its tenant: `tenant: 'found'`): a tenant user only their own (naming another tenant is a
 * 404, as for an unknown one); a SUPER_ADMIN the tenant named, or every tenant when none is named,
 * each read then as the one tenant it names.
 */
export async function enterStreamScope(principal: Principal, requested: string | undefined): Promise<StreamScope> {
  if (!requested && principal.role === 'SUPER_ADMIN') {
    // Every tenant's: each read runs as the one tenant it names (docs/architecture.md, 27).
    enterEachTenant();
    return { kind: 'all' };
  }
  // The tenant named is read as itself, and the stream runs as the tenant decided.
  const tenantId = await asTenant(requested || principal.tenantId, () => resolveTenant(principal, requested));
  enterTenant(tenantId);
  return { kind: 'tenant', tenantId };
}
