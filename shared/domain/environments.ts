/** Environments: a tenant's sites, and what deleting one means. */
import { tenantScope } from '../auth/tenant-scope.js';
import { auditEntry, auditPut } from '../db/audit.js';
import {
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
import { retryOnConcurrentChange, transactWrite } from '../db/transact.js';
import { NotFoundError } from '../errors.js';
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
    const changes = diff(current, update);
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
