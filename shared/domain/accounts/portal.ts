/** The account portal: registering an organisation and logging in. */
import { passwordLogin } from '../../adapters/cognito.js';
import { verifyBearer } from '../../adapters/jwt.js';
import { getUser } from '../../db/users.js';
import { createHash } from 'node:crypto';
import { admitLoginAttempt, clearLoginGuard, lockLogin, refundLoginAttempt } from '../../db/rate-limits.js';
import { RateLimitedError, UnauthorizedError } from '../../errors.js';
import type { Prefetched } from '../../db/read-batch.js';
import { tenantFrom } from '../../db/tenants.js';
import { planOf } from './plans.js';
import type { CallerActor } from '../../vocabulary/actor.js';
import type { TransactItem } from '../../db/transact.js';
import { now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { createTenant } from './tenants.js';
import { newUserWrites } from './user-accounts.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { registerRequest } from '../../schemas/portal.js';
import type { TenantId } from '../../vocabulary/tenant.js';

const LOGIN_REFUSED = 'Incorrect email or password';

export interface LoginResult {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: string;
  /** Who logged in: what `tenant_id` parameters take for the user's own data. */
  tenant_id: string;
  user_id: string;
  role: string;
}

/** Failed logins of one account (from any address) that pass before it is locked. */
export const LOGIN_FREE_FAILURES = 5;
const FIRST_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/** Failures are forgotten an hour after the last one (TTL), or at the next successful login. */
const FORGET_FAILURES_SECONDS = 3600;

/**
 * How long an account is locked after its `failures`th failed login in a row: not at all for the
 * first five, then 30 s, doubling with each further failure, never more than 15 minutes. An
 * attacker guessing one account's password from many addresses gets about 20 guesses an hour;
 * the real user is kept out at most 15 minutes at a time, never for good.
 */
export const loginLockMs = (failures: number): number =>
  failures < LOGIN_FREE_FAILURES ? 0 : Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (failures - LOGIN_FREE_FAILURES));

/**
 * Exchanges email and password for a bearer token. A wrong password and an unknown email get the
 * same answer, so the answer does not tell whether an account exists; both count against the
 * account's failed logins (`loginLockMs`), and while it is locked no password is tried at all.
 *
 * Every guess is counted as failed before its password is tried, in the one conditional write
 * that lets it in (`admitLoginAttempt`): however many arrive at once, at most five are tried
 * before the lock, and one each time a lock runs out. A success forgets them all. DynamoDB calls:
 * one to let the guess in or refuse it; then one more on a success (forgetting the failures) or on
 * the sixth and later failures (a longer lock), none on the others.
 */
export async function login(email: string, password: string): Promise<LoginResult> {
  const account = accountHash(email);
  const nowMs = Date.now();
  const ticket = await admitLoginAttempt(account, {
    nowMs,
    free: LOGIN_FREE_FAILURES,
    // The lock the guess would cause if it failed as the fifth: in place before it is tried.
    holdMs: loginLockMs(LOGIN_FREE_FAILURES),
    expiresAt: Math.ceil(nowMs / 1000) + FORGET_FAILURES_SECONDS,
  });
  // Counted from now, not from when this request began: the guess that locked the account may
  // have begun after it, and the wait is never longer than the lock the answer names.
  if (!ticket.admitted) throw accountLocked(ticket.lockedUntil, Date.now());
  const tokens = await passwordLogin(email, password).catch(async (err: unknown) => {
    // Not tried (the identity store failed): not a failure either. The answer is the store's
    // failure, even if taking the guess back fails too.
    await refundLoginAttempt(account).catch(() => undefined);
    throw err;
  });
  if (!tokens) {
    const lock = loginLockMs(ticket.attempt);
    if (lock <= 0) throw new UnauthorizedError(LOGIN_REFUSED);
    const lockedUntil = nowMs + lock;
    // The fifth failure's lock is the hold its admission already wrote; later ones are longer.
    if (lock > loginLockMs(LOGIN_FREE_FAILURES)) await lockLogin(account, ticket.attempt, lockedUntil);
    throw accountLocked(lockedUntil, nowMs);
  }
  await clearLoginGuard(account);
  // The table decides who is active (the identity store follows it): a deactivated or deleted
  // user gets no token, even if the identity store has not caught up.
  const claims = await verifyBearer(tokens.idToken);
  const user = await getUser(claims.tenantId, claims.userId);
  if (!user?.active) throw new UnauthorizedError(LOGIN_REFUSED);
  return {
    access_token: tokens.idToken,
    token_type: 'bearer',
    expires_in: tokens.expiresIn,
    expires_at: new Date(nowMs + tokens.expiresIn * 1000).toISOString(),
    tenant_id: claims.tenantId,
    user_id: claims.userId,
    role: user.role,
  };
}

function accountLocked(lockedUntil: number, nowMs: number): RateLimitedError {
  const seconds = Math.max(1, Math.ceil((lockedUntil - nowMs) / 1000));
  return new RateLimitedError(
    { limit: LOGIN_FREE_FAILURES, remaining: 0, reset: Math.ceil(lockedUntil / 1000) },
    seconds,
    `Too many failed logins for this account; try again in ${seconds} s`,
  );
}

export type Registration = InputOf<typeof registerRequest>;

export interface Registered {
  /** The tenant the registration made. */
  tenant_id: TenantId;
  user_id: string;
  email: string;
  role: 'TENANT_ADMIN';
  plan: 'free';
}

/** The key of an account's sign-in records (failed logins, registrations): a hash of its email. */
export const accountHash = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** More writes for a registration's transaction, made as the registrant (a developer's key: ./developer-accounts.ts). */
export type AlsoWrite = (registrant: CallerActor, tenantId: TenantId) => TransactItem[];

/**
 * Writes a registration's tenant (free plan), its configuration, its TENANT_ADMIN (whose identity
 * exists, or, for a developer's tenant of an address with an account, who has none) and their
 * audit entries in one transaction, with `alsoWrite`'s items.
 */
export async function writeRegisteredTenant(
  actor: Actor,
  input: { email: string; tenantId: TenantId; userId: string; organization_name: string; name?: string | null },
  alsoWrite: AlsoWrite = () => [],
): Promise<Registered> {
  const { tenantId, userId, email } = input;
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
  const registrant: CallerActor = {
    kind: 'user',
    principal: { userId, tenantId, role: 'TENANT_ADMIN', email, via: 'jwt', requestsPerMinute: null },
    requestId: actor.requestId,
    sourceIp: actor.sourceIp ?? 'unknown',
  };
  await createTenant(
    registrant,
    { name: input.organization_name, plan: 'free', contact_email: email },
    () => [...newUserWrites(registrant, user), ...alsoWrite(registrant, tenantId)],
    tenantId,
  );
  return { tenant_id: tenantId, user_id: userId, email, role: 'TENANT_ADMIN', plan: 'free' };
}

/** Who the caller is (`GET /api/v1/portal/me`): from its credential and the tenant read with it. */
export function whoAmI(actor: CallerActor, read: Prefetched) {
  const { principal } = actor;
  const tenant = tenantFrom(read, principal.tenantId);
  // Authentication read the tenant in the same trip and refused a caller without one.
  if (!tenant) throw new UnauthorizedError('Not authenticated');
  return {
    via: principal.via === 'api_key' ? ('api_key' as const) : ('bearer' as const),
    user_id: principal.userId,
    email: principal.via === 'api_key' ? null : (principal.email ?? null),
    role: principal.role,
    api_key_id: principal.apiKeyId ?? null,
    tenant: { tenant_id: tenant.tenant_id, name: tenant.name, plan: tenant.plan, status: tenant.status },
    limits: planOf(tenant.plan).limits,
  };
}
