/**
 * The lifecycle every thing inside an environment shares (zones, sensors, assets, files): it is
 * created only in an existing environment of the caller's tenant, read and changed only within
 * that tenant, and every change is audited in the same transaction. Kind-specific rules (geofence
 * checks, sensor health) live in each kind's module and plug in through `build` and `apply`.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { getEnvironment } from '../../db/environments.js';
import type { PageRequest } from '../../db/query.js';
import {
  createSiteEntity,
  deleteSiteEntity,
  PLAN_COUNT_ITEM,
  getSiteEntity,
  listSiteEntitiesOfEnvironment,
  siteEntityId,
  updateSiteEntity,
  withoutVersion,
  type SiteEntityBase,
  type SiteKind,
  type StoredSiteEntity,
} from '../../db/site-entities.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { ENVIRONMENT_NOT_FOUND } from './environments.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/**
 * How a kind the plan limits is created: the plan's limit (null: none), and what to do when the
 * tenant's count refuses (throw the plan's refusal, or return to try again once it is counted).
 */
export interface PlanLimitHold {
  allowed: number | null;
  whenRefused: (attempt: number) => Promise<void>;
}

export interface NewEntityContext {
  tenantId: TenantId;
  environmentId: string;
  at: string;
}

/**
 * Creates an entity of `kind` in an environment of the caller's tenant. `build` makes the entity
 * (and may throw a 422); the environment must exist when the transaction commits.
 */
export async function createInEnvironment<T extends SiteEntityBase>(
  actor: Actor,
  kind: SiteKind,
  tenantId: TenantId,
  environmentId: string,
  build: (ctx: NewEntityContext) => T | Promise<T>,
  audited: (entity: T) => Record<string, unknown>,
  plan?: PlanLimitHold,
): Promise<T> {
  if (kind.planLimit && !plan) throw new Error(`a ${kind.resource} is created under its tenant's plan`);
  if (!(await getEnvironment(tenantId, environmentId))) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  const entity = await build({ tenantId, environmentId, at: now() });
  const id = siteEntityId(kind, entity);
  const audit = auditEntry(actor, {
    tenantId,
    action: `${kind.resource}.created`,
    resourceType: kind.resource,
    resourceId: id,
    changes: audited(entity),
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await transactWrite([...createSiteEntity(kind, entity, plan?.allowed), auditPut(audit)]);
      return entity;
    } catch (err) {
      if (!(err instanceof ConditionFailed)) throw err;
      // Item 1 is the environment's count: the environment was deleted meanwhile.
      if (err.index === 1) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
      if (err.index !== PLAN_COUNT_ITEM || !plan) throw err;
      // The tenant's count: at the plan's limit (refused), or not counted yet (counted, then again).
      await plan.whenRefused(attempt);
    }
  }
}

export async function findInTenant<T extends SiteEntityBase>(
  kind: SiteKind,
  tenantId: TenantId,
  id: string,
  notFound: string,
): Promise<StoredSiteEntity<T>> {
  const entity = await getSiteEntity<T>(kind, tenantId, id);
  if (!entity) throw new NotFoundError(notFound);
  return entity;
}

export async function listInEnvironment<T extends SiteEntityBase>(
  kind: SiteKind,
  tenantId: TenantId,
  environmentId: string,
  page: PageRequest,
  options: { newestFirst?: boolean; filter?: Record<string, unknown> } = {},
): Promise<T[]> {
  if (!(await getEnvironment(tenantId, environmentId))) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  return (await listSiteEntitiesOfEnvironment<T>(kind, tenantId, environmentId, page, options)).map(withoutVersion);
}

/**
 * Applies `apply` (which returns the changed fields, and may throw a 422 or 409) with optimistic
 * locking; audits the fields that really changed.
 */
export async function updateInTenant<T extends SiteEntityBase>(
  actor: Actor,
  kind: SiteKind,
  id: string,
  tenantId: TenantId,
  notFound: string,
  apply: (current: T) => Partial<T> | Promise<Partial<T>>,
): Promise<T> {
  return retryOnConcurrentChange(async () => {
    const stored = await findInTenant<T>(kind, tenantId, id, notFound);
    const current = withoutVersion(stored);
    const update = await apply(current);
    const changes = diff(current, update);
    if (Object.keys(changes).length === 0) return current;
    const fields = {
      ...Object.fromEntries(Object.keys(changes).map((k) => [k, (update as Record<string, unknown>)[k]])),
      updated_at: now(),
    };
    const audit = auditEntry(actor, {
      tenantId: current.tenant_id,
      action: `${kind.resource}.updated`,
      resourceType: kind.resource,
      resourceId: id,
      changes,
    });
    await transactWrite([...updateSiteEntity(kind, current, fields, stored.version), auditPut(audit)]);
    return { ...current, ...fields };
  });
}

export async function deleteInTenant<T extends SiteEntityBase>(
  actor: Actor,
  kind: SiteKind,
  id: string,
  tenantId: TenantId,
  notFound: string,
  audited: (entity: T) => Record<string, unknown> = () => ({}),
): Promise<StoredSiteEntity<T>> {
  return retryOnConcurrentChange(async () => {
    const stored = await findInTenant<T>(kind, tenantId, id, notFound);
    const audit = auditEntry(actor, {
      tenantId: stored.tenant_id,
      action: `${kind.resource}.deleted`,
      resourceType: kind.resource,
      resourceId: id,
      changes: audited(stored),
    });
    await transactWrite([...deleteSiteEntity(kind, stored), auditPut(audit)]);
    return stored;
  });
}
