/** The account portal: registering an organisation and logging in. */
import { passwordLogin } from '../adapters/cognito.js';
import { verifyBearer } from '../adapters/jwt.js';
import { getUser } from '../db/users.js';
import { UnauthorizedError } from '../errors.js';
import { newId, now } from '../ids.js';
import type { Actor } from './actor.js';
import { createTenant } from './tenants.js';
import { newUserWrites, withNewIdentity } from './user-accounts.js';
import type { InputOf } from '../schemas/json-schema.js';
import type { registerRequest } from '../schemas/portal.js';
import { systemTenant } from '../vocabulary/tenant.js';

const LOGIN_REFUSED = 'Incorrect email or password';

export interface LoginResult {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/**
 * Exchanges email and password for a bearer token. A wrong password and an unknown email get the
 * same answer, so the answer does not tell whether an account exists.
 */
export async function login(email: string, password: string): Promise<LoginResult> {
  const tokens = await passwordLogin(email, password);
  if (!tokens) throw new UnauthorizedError(LOGIN_REFUSED);
  // The table decides who is active (the identity store follows it): a deactivated or deleted
  // user gets no token, even if the identity store has not caught up.
  const claims = await verifyBearer(tokens.idToken);
  const user = await getUser(claims.tenantId, claims.userId);
  if (!user?.active) throw new UnauthorizedError(LOGIN_REFUSED);
  return { access_token: tokens.idToken, token_type: 'bearer', expires_in: tokens.expiresIn };
}

export type Registration = InputOf<typeof registerRequest>;

export interface Registered {
  tenant_id: string;
  user_id: string;
  email: string;
  role: 'TENANT_ADMIN';
  plan: 'free';
}

/**
 * Self-serve sign-up: a new tenant on the free plan with the registrant as its TENANT_ADMIN. The
 * account is created first; the tenant, its configuration, the user and their audit entries are
 * then written in one transaction, and the account is removed again if that fails.
 */
export async function register(actor: Actor, input: Registration): Promise<Registered> {
  // The tenant this registration creates.
  const tenantId = systemTenant(newId());
  return withNewIdentity({ email: input.email, tenantId, password: input.password }, async ({ userId, email }) => {
    const at = now();
    const user = {
      user_id: userId,
      tenant_id: tenantId,
      email,
      name: input.name?.trim() || null,
      role: 'TENANT_ADMIN' as const,
      active: true,
      created_at: at,
      updated_at: at,
    };
    // The registrant is who acts, for the audit entries.
    const registrant: Actor = {
      kind: 'user',
      principal: { userId, tenantId, role: 'TENANT_ADMIN', email, via: 'jwt', requestsPerMinute: null },
      requestId: actor.requestId,
      sourceIp: actor.sourceIp ?? 'unknown',
    };
    await createTenant(
      registrant,
      { name: input.organization_name, plan: 'free', contact_email: email },
      () => newUserWrites(registrant, user),
      tenantId,
    );
    return { tenant_id: tenantId, user_id: userId, email, role: 'TENANT_ADMIN', plan: 'free' };
  });
}
