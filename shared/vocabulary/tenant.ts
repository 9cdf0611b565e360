/**
 * A tenant id that has been decided: for a request, by the HTTP edge from the caller's credential
 * and the contract's rule (shared/auth/tenant.ts: own tenant only, except SUPER_ADMIN); for system
 * work, from the data it works on. Domain and db functions that act in a tenant take this type,
 * so a plain string from a request (a query's `tenant_id`) does not compile where the check is due.
 */
/** What a tenant the caller may not see is answered with: the same as for an unknown one. */
export const TENANT_NOT_FOUND = 'Tenant not found';

declare const decided: unique symbol;

export type TenantId = string & { readonly [decided]: true };

/**
 * The tenant that system work acts in, named by its data (an SLA timer, a stored event, a tenant
 * just created). Not for requests: their tenant is decided at the edge. test/unit/layers.test.ts
 * lists the modules allowed to call it.
 */
export const systemTenant = (tenantId: string): TenantId => tenantId as TenantId;
