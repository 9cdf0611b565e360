/**
 * Users of a tenant, as the table holds them: role, active flag, name. Reading them needs no
 * identity store; creating, changing and deleting accounts does (shared/domain/accounts/user-accounts.ts).
 */
import type { CallerActor } from '../../vocabulary/actor.js';
import type { PageRequest } from '../../db/query.js';
import { getUser, listUsers as listStoredUsers, publicUser, type User } from '../../db/users.js';
import { NotFoundError } from '../../errors.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { userCreate, userUpdate } from '../../schemas/users.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type { User } from '../../db/users.js';

export const USER_NOT_FOUND = 'User not found';

export type UserCreate = InputOf<typeof userCreate>;

export type UserUpdate = InputOf<typeof userUpdate>;

export async function listUsers(actor: CallerActor, tenantId: TenantId, page: PageRequest): Promise<User[]> {
  return (await listStoredUsers(tenantId, page)).map(publicUser);
}

/** The user as stored (with its version), in the caller's tenant or the one SUPER_ADMIN names. */
export async function findStoredUser(actor: CallerActor, userId: string, tenantId: TenantId) {
  const user = await getUser(tenantId, userId);
  if (!user) throw new NotFoundError(USER_NOT_FOUND);
  return user;
}

export async function findUser(actor: CallerActor, userId: string, tenantId: TenantId): Promise<User> {
  return publicUser(await findStoredUser(actor, userId, tenantId));
}
