/**
 * User accounts: creating, changing and deleting them. An account lives in two places: the identity store (email and password,
 * Cognito) and the table (role, active flag, name). The identity is created first, the table
 * second, and the identity is removed again when the table write fails, so no half-made user
 * remains. Role and active flag are read from the table on every request.
 */
import {
  createIdentity,
  deleteIdentity,
  IdentityExistsError,
  setIdentityEnabled,
  WeakPasswordError,
} from '../../adapters/cognito.js';
import { meetsPasswordPolicy, PASSWORD_RULES } from '../../vocabulary/password-policy.js';
import type { CallerActor, Principal } from '../../vocabulary/actor.js';
import { roleSatisfies } from '../../vocabulary/roles.js';
import { deleteApiKeysOf } from '../../db/api-keys.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { getTenant } from '../../db/tenants.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite, type TransactItem } from '../../db/transact.js';
import { getPlanCount, releasePlanCount, seedPlanCount, takePlanCount } from '../../db/plan-counts.js';
import { USER_PREFIX } from '../../db/keys.js';
import { deleteUserItem, publicUser, putNewUser, putUserVersion, type User } from '../../db/users.js';
import { ConflictError, ForbiddenError, invalid, NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import type { Role } from '../../vocabulary/roles.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { planOf } from './plans.js';
import { planLimitReached } from './plan-refusals.js';
import { findStoredUser, type UserCreate, type UserUpdate } from './users.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Nobody hands out a role above their own; only SUPER_ADMIN makes SUPER_ADMINs. */
function assertMayGrant(principal: Principal, role: Role): void {
  if (!roleSatisfies(principal.role, role)) {
    throw new ForbiddenError(`You cannot give the ${role} role: it is above your own`);
  }
}

/**
 * The table items of a new user and its audit entry. Exported for registration, which writes
 * them in the same transaction as the new tenant.
 */
export function newUserWrites(actor: Actor, user: User): TransactItem[] {
  const audit = auditEntry(actor, {
    tenantId: user.tenant_id,
    action: 'user.created',
    resourceType: 'user',
    resourceId: user.user_id,
    changes: { email: user.email, role: user.role, name: user.name, active: user.active },
  });
  return [putNewUser(user), auditPut(audit)];
}

const weakPassword = () =>
  invalid(['body', 'password'], `does not meet the password policy: ${PASSWORD_RULES}`, 'password_policy');

/**
 * Creates the identity, then runs `write` with the new user; if `write` fails the identity is
 * removed again. Maps the identity store's refusals to API errors.
 */
export async function withNewIdentity<T>(
  input: { email: string; tenantId: string; password?: string },
  write: (identity: { userId: string; email: string }) => Promise<T>,
): Promise<T> {
  if (input.password !== undefined && !meetsPasswordPolicy(input.password)) throw weakPassword();
  let identity;
  try {
    identity = await createIdentity(input);
  } catch (err) {
    if (err instanceof IdentityExistsError) throw new ConflictError('A user with this email exists');
    if (err instanceof WeakPasswordError) throw weakPassword();
    throw err;
  }
  try {
    return await write(identity);
  } catch (err) {
    await deleteIdentity(identity.email);
    throw err;
  }
}

export async function createUser(actor: CallerActor, tenantId: TenantId, input: UserCreate): Promise<User> {
  const principal = actor.principal;
  assertMayGrant(principal, input.role);
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFoundError('Tenant not found');
  // The plan's user limit, held by the tenant's count (shared/db/plan-counts.ts): read first, so
  // a tenant at its limit is refused before an identity is made; the create's transaction moves
  // the count with the limit as its condition, so parallel creates cannot pass it.
  const allowed = planOf(tenant.plan).limits.users;
  const count = (await getPlanCount(tenantId, 'users')) ?? (await seedPlanCount(tenantId, 'users', USER_PREFIX));
  if (allowed !== null && count >= allowed) throw planLimitReached(tenant.plan, 'users', count);
  return withNewIdentity({ email: input.email, tenantId, password: input.password }, async ({ userId, email }) => {
    const at = now();
    const user: User = {
      user_id: userId,
      tenant_id: tenantId,
      email,
      name: input.name ?? null,
      role: input.role,
      active: true,
      created_at: at,
      updated_at: at,
    };
    const writes = [...newUserWrites(actor, user), takePlanCount(tenantId, 'users', allowed)];
    try {
      await transactWrite(writes);
    } catch (err) {
      if (err instanceof ConditionFailed && err.indexes.includes(writes.length - 1))
        throw planLimitReached(tenant.plan, 'users', allowed ?? undefined);
      throw err;
    }
    return user;
  });
}

export async function updateUser(
  actor: CallerActor,
  userId: string,
  tenantId: TenantId,
  update: UserUpdate,
): Promise<User> {
  const principal = actor.principal;
  if (update.role !== undefined) assertMayGrant(principal, update.role);
  const result = await retryOnConcurrentChange(async () => {
    const current = await findStoredUser(actor, userId, tenantId);
    // A TENANT_ADMIN cannot demote or disable someone above them (a SUPER_ADMIN).
    assertMayGrant(principal, current.role);
    if (
      current.user_id === principal.userId &&
      (update.active === false || (update.role && update.role !== current.role))
    ) {
      throw new ConflictError('You cannot change your own role or deactivate yourself');
    }
    const changes = diff(current, update);
    if (Object.keys(changes).length === 0) return { user: publicUser(current), enabledChanged: false };
    const next = { ...current, ...update, updated_at: now(), version: current.version + 1 };
    const audit = auditEntry(actor, {
      tenantId: current.tenant_id,
      action: 'user.updated',
      resourceType: 'user',
      resourceId: userId,
      changes,
    });
    await transactWrite([putUserVersion(next, current.version), auditPut(audit)]);
    return { user: publicUser(next), enabledChanged: 'active' in changes };
  });
  // The table is the authority (the API checks `active` on every request); the identity store
  // follows so a deactivated user cannot even log in.
  if (result.enabledChanged) await setIdentityEnabled(result.user.email, result.user.active);
  return result.user;
}

export async function deleteUser(actor: CallerActor, userId: string, tenantId: TenantId): Promise<void> {
  const principal = actor.principal;
  const user = await retryOnConcurrentChange(async () => {
    const current = await findStoredUser(actor, userId, tenantId);
    assertMayGrant(principal, current.role);
    if (current.user_id === principal.userId) throw new ConflictError('You cannot delete yourself');
    const audit = auditEntry(actor, {
      tenantId: current.tenant_id,
      action: 'user.deleted',
      resourceType: 'user',
      resourceId: userId,
      changes: { email: current.email, role: current.role },
    });
    await transactWrite([deleteUserItem(current), auditPut(audit), releasePlanCount(tenantId, 'users')]);
    return current;
  });
  // With the user item gone their tokens and keys are refused already; these tidy up.
  await deleteApiKeysOf(user.tenant_id, user.user_id, (key) => [
    auditPut(
      auditEntry(actor, {
        tenantId: user.tenant_id,
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: key.key_id,
        changes: { reason: 'creator deleted' },
      }),
    ),
  ]);
  await deleteIdentity(user.email);
}
