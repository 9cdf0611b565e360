/** Environments: a tenant's sites, and what deleting one means. */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  getEnvironment,
  listEnvironments as listStoredEnvironments,
  publicEnvironment,
  putNewEnvironment,
  updateEnvironment as updateStoredEnvironment,
  type Environment,
  type EnvironmentFilter,
  type StoredEnvironment,
} from '../../db/environments.js';
import type { PageRequest } from '../../db/query.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../errors.js';
import { countryCodeOf } from '../country-code.js';
import { newId, now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { environmentCreate, environmentUpdate } from '../../schemas/environments.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type { Environment } from '../../db/environments.js';

export const ENVIRONMENT_NOT_FOUND = 'Environment not found';

export type EnvironmentCreate = InputOf<typeof environmentCreate>;

export type EnvironmentUpdate = InputOf<typeof environmentUpdate>;

/** The country as kept: upper case, an assigned ISO 3166-1 alpha-2 code (422 otherwise). */
function countryOf(sent: string | null | undefined): string | null {
  return sent === undefined || sent === null ? null : countryCodeOf(sent, ['body', 'country']);
}

export async function createEnvironment(
  actor: Actor,
  tenantId: TenantId,
  input: EnvironmentCreate,
): Promise<Environment> {
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
    country: countryOf(input.country),
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

export async function listEnvironments(
  actor: Actor,
  tenantId: TenantId,
  filter: EnvironmentFilter,
  page: PageRequest,
): Promise<Environment[]> {
  return (await listStoredEnvironments(tenantId, filter, page)).map(publicEnvironment);
}

/** The caller's environment (or, for SUPER_ADMIN, the named tenant's); 404 otherwise. */
export async function findStoredEnvironment(tenantId: TenantId, environmentId: string): Promise<StoredEnvironment> {
  const env = await getEnvironment(tenantId, environmentId);
  if (!env) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  return env;
}

export async function findEnvironment(tenantId: TenantId, environmentId: string): Promise<Environment> {
  return publicEnvironment(await findStoredEnvironment(tenantId, environmentId));
}

export async function updateEnvironment(
  actor: Actor,
  environmentId: string,
  tenantId: TenantId,
  update: EnvironmentUpdate,
): Promise<Environment> {
  return retryOnConcurrentChange(async () => {
    const stored = await findStoredEnvironment(tenantId, environmentId);
    const current = publicEnvironment(stored);
    if (update.country !== undefined) update = { ...update, country: countryOf(update.country) };
    const changes = diff(current, update);
    if (Object.keys(changes).length === 0) return current;
    const next: Environment = { ...current, ...update, name: update.name?.trim() ?? current.name, updated_at: now() };
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
