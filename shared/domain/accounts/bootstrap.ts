/**
 * The first platform administrator. `npm start` calls this at every start and `npm run
 * create-admin` in AWS; it creates what is missing and repairs a half-finished earlier run (the
 * identity store and the table are two systems, so either can be ahead after a crash).
 */
import { createIdentity, findIdentity } from '../../adapters/cognito.js';
import { getTenant } from '../../db/tenants.js';
import { getUser } from '../../db/users.js';
import { transactWrite } from '../../db/transact.js';
import { newId, now } from '../../ids.js';
import { systemActor, type Actor } from '../actor.js';
import { createTenant } from './tenants.js';
import { newUserWrites } from './user-accounts.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

export const PLATFORM_TENANT_NAME = 'Gatehouse platform';

export interface BootstrapResult {
  created: boolean;
  userId: string;
  tenantId: string;
}

export async function ensureBootstrapAdmin(opts: { email: string; password: string }): Promise<BootstrapResult> {
  const actor = systemActor(`bootstrap-${newId()}`);
  let created = false;
  let identity = await findIdentity(opts.email);
  if (!identity) {
    identity = await createIdentity({ email: opts.email, tenantId: newId(), password: opts.password });
    created = true;
  }
  const { userId, email } = identity;
  // System work: the platform's own tenant, as the identity store has it.
  const tenantId = systemTenant(identity.tenantId);
  const userItems = async () =>
    (await getUser(tenantId, userId)) ? [] : adminUserWrite(actor, tenantId, userId, email);
  if (!(await getTenant(tenantId))) {
    const items = await userItems();
    await createTenant(actor, { name: PLATFORM_TENANT_NAME, plan: 'enterprise' }, () => items, tenantId);
    created = true;
  } else {
    const items = await userItems();
    if (items.length > 0) {
      await transactWrite(items);
      created = true;
    }
  }
  return { created, userId, tenantId };
}

function adminUserWrite(actor: Actor, tenantId: TenantId, userId: string, email: string) {
  const at = now();
  return newUserWrites(actor, {
    user_id: userId,
    tenant_id: tenantId,
    email,
    name: 'Platform administrator',
    role: 'SUPER_ADMIN',
    active: true,
    created_at: at,
    updated_at: at,
  });
}
