/** Environments: a tenant's sites, and what deleting one means. */
import { deleteObjectsUnder, environmentPrefix } from '../adapters/s3.js';
import { tenantScope } from '../auth/tenant-scope.js';
import { auditEntry, auditPut } from '../db/audit.js';
import {
  CHILD_KINDS,
  deleteEmptyEnvironment,
  getEnvironment,
  listEnvironments as listStoredEnvironments,
  publicEnvironment,
  putNewEnvironment,
  updateEnvironment as updateStoredEnvironment,
  type Environment,
  type EnvironmentFilter,
  type StoredEnvironment,
} from '../db/environments.js';
import type { PageRequest } from '../db/query.js';
import { deleteSiteEntity, listSiteEntitiesOfEnvironment, SITE_KINDS, type SiteEntityBase } from '../db/site-entities.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../db/transact.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import { newId, now } from '../ids.js';
import type { Actor } from './actor.js';
import { diff } from './diff.js';
import type { InputOf } from '../schemas/json-schema.js';
import type { environmentCreate, environmentUpdate } from '../schemas/environments.js';

export type { Environment } from '../db/environments.js';

export const ENVIRONMENT_NOT_FOUND = 'Environment not found';

export type EnvironmentCreate = InputOf<typeof environmentCreate>;

export type EnvironmentUpdate = InputOf<typeof environmentUpdate>;

function callerOf(actor: Actor) {
  if (!actor.principal) throw new Error('environments need an authenticated caller');
  return actor.principal;
}

export async function createEnvironment(actor: Actor, input: EnvironmentCreate): Promise<Environment> {
  const tenantId = await tenantScope(callerOf(actor), input.tenant_id);
  const at = now();
  const env: Environment = {
    environment_id: newId(),
    tenant_id: tenantId,
    name: input.name.trim(),
    type: input.type,
    status: input.status ?? 'active',
    description: input.description ?? null,
    location: input.location ?? null,
    address: input.address ?? null,
    created_at: at,
    updated_at: at,
  };
  const audit = auditEntry(actor, {
    tenantId,
    action: 'environment.created',
    resourceType: 'environment',
    resourceId: env.environment_id,
    changes: { name: env.name, type: env.type, status: env.status },
  });
  await transactWrite([putNewEnvironment(env), auditPut(audit)]);
  return env;
}

export async function listEnvironments(actor: Actor, requestedTenant: string, filter: EnvironmentFilter, page: PageRequest): Promise<Environment[]> {
  const tenantId = await tenantScope(callerOf(actor), requestedTenant);
  return (await listStoredEnvironments(tenantId, filter, page)).map(publicEnvironment);
}

/** The caller's environment (or, for SUPER_ADMIN, the named tenant's); 404 otherwise. */
export async function findStoredEnvironment(actor: Actor, environmentId: string, requestedTenant?: string): Promise<StoredEnvironment> {
  const tenantId = await tenantScope(callerOf(actor), requestedTenant);
  const env = await getEnvironment(tenantId, environmentId);
  if (!env) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  return env;
}

export async function findEnvironment(actor: Actor, environmentId: string, requestedTenant?: string): Promise<Environment> {
  return publicEnvironment(await findStoredEnvironment(actor, environmentId, requestedTenant));
}

export async function updateEnvironment(actor: Actor, environmentId: string, requestedTenant: string | undefined, update: EnvironmentUpdate): Promise<Environment> {
  return retryOnConcurrentChange(async () => {
    const stored = await findStoredEnvironment(actor, environmentId, requestedTenant);
    const current = publicEnvironment(stored);
    const changes = diff(current as unknown as Record<string, unknown>, update as Record<string, unknown>);
    if (Object.keys(changes).length === 0) return current;
    const next: Environment = { ...current, ...update, name: update.name?.trim() ?? current.name, updated_at: now() } as Environment;
    const audit = auditEntry(actor, {
      tenantId: current.tenant_id,
      action: 'environment.updated',
      resourceType: 'environment',
      resourceId: environmentId,
      changes,
    });
    await transactWrite([updateStoredEnvironment(next, stored.version), auditPut(audit)]);
    return next;
  });
}

/**
 * Deletes an environment. Without `cascade`, one that holds anything is 409 naming what. With it,
 * its stored files go first (objects can be deleted again; a half-done cascade is finished by
 * calling again), then each thing in it with its audit entry, then the environment itself, whose
 * delete checks that it is empty at that instant.
 */
export async function deleteEnvironment(actor: Actor, environmentId: string, requestedTenant: string | undefined, cascade: boolean): Promise<void> {
  const first = await findStoredEnvironment(actor, environmentId, requestedTenant);
  const tenantId = first.tenant_id;
  if (cascade) await emptyEnvironment(actor, first);
  for (let attempt = 0; attempt < 3; attempt++) {
    const env = attempt === 0 && !cascade ? first : await findStoredEnvironment(actor, environmentId, requestedTenant);
    const held = CHILD_KINDS.filter((k) => env.counts[k] > 0).map((k) => `${env.counts[k]} ${k}`);
    if (held.length > 0 && !cascade) {
      throw new ConflictError(`The environment still holds ${held.join(', ')}; delete them first or pass cascade=true`);
    }
    if (held.length > 0) {
      await emptyEnvironment(actor, env);
      continue;
    }
    const audit = auditEntry(actor, {
      tenantId,
      action: 'environment.deleted',
      resourceType: 'environment',
      resourceId: environmentId,
      changes: { name: env.name, cascade },
    });
    try {
      await transactWrite([deleteEmptyEnvironment(env), auditPut(audit)]);
      // Uploads never extracted leave objects that no item counts.
      await deleteObjectsUnder(environmentPrefix(tenantId, environmentId));
      return;
    } catch (err) {
      // Something was added or changed meanwhile: look again.
      if (!(err instanceof ConditionFailed)) throw err;
    }
  }
  throw new ConflictError('The environment kept changing while it was being deleted; try again');
}

async function emptyEnvironment(actor: Actor, env: StoredEnvironment): Promise<void> {
  await deleteObjectsUnder(environmentPrefix(env.tenant_id, env.environment_id));
  for (const kind of Object.values(SITE_KINDS)) {
    // Always the first page: each pass deletes what it read. The index may still show an entry
    // just deleted; a pass that shows nothing new ends the kind.
    const attempted = new Set<string>();
    for (;;) {
      const page = await listSiteEntitiesOfEnvironment<SiteEntityBase>(kind, env.tenant_id, env.environment_id, { limit: 50, offset: 0 });
      const fresh = page.filter((e) => !attempted.has(String((e as unknown as Record<string, unknown>)[kind.idField])));
      if (fresh.length === 0) break;
      for (const entity of fresh) {
        const id = String((entity as unknown as Record<string, unknown>)[kind.idField]);
        attempted.add(id);
        const audit = auditEntry(actor, {
          tenantId: env.tenant_id,
          action: `${kind.resource}.deleted`,
          resourceType: kind.resource,
          resourceId: id,
          changes: { cascade_from_environment: env.environment_id },
        });
        try {
          await transactWrite([...deleteSiteEntity(kind, entity), auditPut(audit)]);
        } catch (err) {
          // Deleted or changed by someone else meanwhile; the environment's count tells the rest.
          if (!(err instanceof ConditionFailed)) throw err;
        }
      }
    }
  }
}
