/**
 * Tenants: the organisations that own everything else. Pure domain logic over the repository;
 * every change writes its audit entry in the same transaction.
 */
import { isNotifyKind } from '../../schemas/integrations.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  getTenant,
  getTenantConfig,
  listTenants as listStoredTenants,
  publicConfig,
  publicTenant,
  putNewTenant,
  putNewTenantConfig,
  putTenantConfigVersion,
  putTenantVersion,
  type Tenant,
} from '../../db/tenants.js';
import type { PageRequest } from '../../db/query.js';
import { retryOnConcurrentChange, transactWrite, type TransactItem } from '../../db/transact.js';
import { getIntegrations } from '../../db/integrations.js';
import { NotFoundError, invalid } from '../../errors.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import { PLAN_CHANGED, TENANTS_SOURCE } from '../../vocabulary/bus.js';
import { outboxPut } from '../../db/outbox.js';
import { TENANT_NOT_FOUND, type TenantId } from '../../vocabulary/tenant.js';
import { newId, now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { defaultTenantConfig, mergeTenantConfig, type TenantConfig, type TenantConfigUpdate } from './tenant-config.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { tenantCreate, tenantUpdate } from '../../schemas/tenants.js';

export type { Tenant } from '../../db/tenants.js';

export type TenantCreate = InputOf<typeof tenantCreate>;

export type TenantUpdate = InputOf<typeof tenantUpdate>;

/**
 * Creates a tenant with the default configuration. `extra` lets a caller (registration,
 * bootstrap) add items that must be written in the same transaction, such as the first user.
 */
export async function createTenant(
  actor: Actor,
  input: TenantCreate,
  extra: (tenantId: string) => TransactItem[] = () => [],
  tenantId: string = newId(),
): Promise<Tenant> {
  const at = now();
  const tenant = {
    tenant_id: tenantId,
    name: input.name.trim(),
    plan: input.plan ?? 'free',
    status: 'active' as const,
    contact_email: input.contact_email ?? null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const audit = auditEntry(actor, {
    tenantId: tenant.tenant_id,
    action: 'tenant.created',
    resourceType: 'tenant',
    resourceId: tenant.tenant_id,
    changes: publicTenant(tenant) as unknown as Record<string, unknown>,
  });
  await transactWrite([
    putNewTenant(tenant),
    putNewTenantConfig(defaultTenantConfig(tenant.tenant_id, at)),
    auditPut(audit),
    ...extra(tenant.tenant_id),
  ]);
  return publicTenant(tenant);
}

export async function findTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFoundError(TENANT_NOT_FOUND);
  return publicTenant(tenant);
}

export async function listTenants(page: PageRequest): Promise<Tenant[]> {
  return (await listStoredTenants(page)).map(publicTenant);
}

export async function updateTenant(actor: Actor, tenantId: string, update: TenantUpdate): Promise<Tenant> {
  return retryOnConcurrentChange(async () => {
    const current = await getTenant(tenantId);
    if (!current) throw new NotFoundError(TENANT_NOT_FOUND);
    const changes = diff(current, update);
    if (Object.keys(changes).length === 0) return publicTenant(current);
    const next = {
      ...current,
      ...update,
      name: update.name?.trim() ?? current.name,
      updated_at: now(),
      version: current.version + 1,
    };
    const audit = auditEntry(actor, {
      tenantId,
      action: 'tenant.updated',
      resourceType: 'tenant',
      resourceId: tenantId,
      changes,
    });
    // A plan change is announced with it: the retention-restamp worker re-stamps the events' TTL.
    const announce =
      next.plan !== current.plan
        ? [
            outboxPut({
              tenantId,
              source: TENANTS_SOURCE,
              detailType: PLAN_CHANGED,
              detail: { plan: next.plan, previous_plan: current.plan, changed_at: next.updated_at },
            }),
          ]
        : [];
    await transactWrite([putTenantVersion(next, current.version), auditPut(audit), ...announce]);
    return publicTenant(next);
  });
}

export async function findTenantConfig(tenantId: string): Promise<TenantConfig> {
  const stored = await getTenantConfig(tenantId);
  if (!stored) throw new NotFoundError(TENANT_NOT_FOUND);
  return publicConfig(stored);
}

export async function updateTenantConfig(
  actor: Actor,
  tenantId: TenantId,
  update: TenantConfigUpdate,
): Promise<TenantConfig> {
  if (update.escalation_policy) await checkIntegrationsNamed(tenantId, update.escalation_policy.levels);
  return retryOnConcurrentChange(async () => {
    const stored = await getTenantConfig(tenantId);
    if (!stored) throw new NotFoundError(TENANT_NOT_FOUND);
    const current = publicConfig(stored);
    const next = mergeTenantConfig(current, update, now());
    const changes = diff(current, next, ['updated_at']);
    if (Object.keys(changes).length === 0) return current;
    const audit = auditEntry(actor, {
      tenantId,
      action: 'tenant_config.updated',
      resourceType: 'tenant_config',
      resourceId: tenantId,
      changes,
    });
    await transactWrite([putTenantConfigVersion(next, stored.version), auditPut(audit)]);
    return next;
  });
}

/**
 * Every integration an escalation level names must be one of the tenant's (one BatchGetItem for
 * them all). Another tenant's is answered as an unknown one, 404, as the contract has it for any
 * object a request names. One deleted later is skipped when notifying
 * (shared/domain/incidents/notification-delivery.ts).
 */
async function checkIntegrationsNamed(
  tenantId: TenantId,
  levels: readonly { integration_ids?: readonly string[] }[],
): Promise<void> {
  const named = [...new Set(levels.flatMap((level) => level.integration_ids ?? []))];
  if (named.length === 0) return;
  const found = await getIntegrations(tenantId, named);
  if (named.some((id) => !found.has(id))) throw new NotFoundError(INTEGRATION_NOT_FOUND);
  for (const [l, level] of levels.entries()) {
    for (const [i, id] of (level.integration_ids ?? []).entries()) {
      const kind = found.get(id)!.kind;
      if (!isNotifyKind(kind))
        throw invalid(
          ['body', 'escalation_policy', 'levels', l, 'integration_ids', i],
          `is a ${kind} integration, which tells nobody`,
          'value_error',
        );
    }
  }
}
