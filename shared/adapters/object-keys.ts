/**
 * Whose credentials a call on the files bucket runs with (docs/architecture.md, 27): inside a
 * tenant scope every call naming an object or a listing prefix runs as the tenant, unless the key
 * is a platform one (PLATFORM_OBJECT_PREFIXES); calls naming no key (HeadBucket) run with the
 * function's own role. Read by shared/adapters/s3.ts and by the local IAM check.
 */
import { eachTenantScope, tenantScope, type TenantScope } from '../tenant-scope.js';

/** Objects of no tenant: the feeds' exports (shared/domain/internet-health/rpki-export.ts). */
export const PLATFORM_OBJECT_PREFIXES = ['feeds/'] as const;

type Input = Record<string, unknown>;

/** The object key (or a listing's prefix) a call names, if any. */
export const objectKeyOf = (input: Input): string | undefined =>
  typeof input.Key === 'string' ? input.Key : typeof input.Prefix === 'string' ? input.Prefix : undefined;

/** The keys a call names: DeleteObjects names several. */
export function objectKeysOf(input: Input): string[] {
  const many = (input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects;
  if (many) return many.map((o) => o.Key ?? '');
  const key = objectKeyOf(input);
  return key === undefined ? [] : [key];
}

/**
 * The tenant an object key (or a listing prefix) belongs to, by the prefixes of a tenant's objects
 * (shared/iam.ts `tenantObjectPatterns`): `tenants/<t>/`, `telemetry/<t>/`,
 * `lake/<table>/tenant_id=<t>/`, `lake-state/connectors/<t>/`.
 */
export function tenantOfObjectKey(key: string): string | undefined {
  const match = /^(?:tenants|telemetry|lake-state\/connectors)\/([^/]+)\/|^lake\/[^/]+\/tenant_id=([^/]+)\//.exec(key);
  return match?.[1] ?? match?.[2];
}

export function bucketCallScope(_command: string, input: Input): TenantScope | undefined {
  const keys = objectKeysOf(input);
  if (keys.length === 0 || keys.every((k) => PLATFORM_OBJECT_PREFIXES.some((p) => k.startsWith(p)))) return undefined;
  const scope = tenantScope();
  if (scope) return scope;
  // Acting on several tenants (shared/tenant-scope.ts `enterEachTenant`): as the tenant the first
  // key names; a key of another tenant in the same call is refused by that tenant's policy.
  const named = keys.map(tenantOfObjectKey).find((t) => t !== undefined);
  return named === undefined ? undefined : eachTenantScope(named);
}
