/**
 * Developer keys (`POST /v1/auth/keys`, docs/developer-api.md). A free key needs no credential: it
 * makes a developer account (a tenant on the free plan and its TENANT_ADMIN, whom no one can log in
 * as) and a VIEWER key of the free tier in it, all in one transaction, and mails the address. The
 * answer is the same whether the address has an account or not: with one, the tenant is a new one of
 * its own, not linked to that account (shared/domain/accounts/developer-accounts.ts). A pro or
 * enterprise key needs a person's bearer token of a TENANT_ADMIN whose tenant plan allows the
 * tier; it is made in that tenant. Keys are the API keys of the portal (hashed, revocable, with
 * an optional address allowlist), carrying their tier.
 */
import { ForbiddenError, invalid, NotFoundError, UnauthorizedError } from '../../errors.js';
import type { Actor, CallerActor } from '../../vocabulary/actor.js';
import { planAllowsTier, TIERS, type DeveloperTier } from '../../vocabulary/developer.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { keyIssueRequest } from '../../schemas/developer.js';
import { API_KEY_NOT_FOUND, createApiKey, newApiKey, openDeveloperAccount, revokeApiKey } from '../accounts/index.js';
import { roleSatisfies } from '../../vocabulary/roles.js';

export type KeyIssue = InputOf<typeof keyIssueRequest>;

/** `callerTenant`: the caller's own tenant, decided at the edge; null without a caller. */
export async function issueDeveloperKey(actor: Actor, callerTenant: TenantId | null, input: KeyIssue) {
  const tier: DeveloperTier = input.tier;
  if (input.rate_limit !== undefined && tier !== 'enterprise')
    throw invalid(['body', 'rate_limit'], 'only an enterprise key sets its own rate', 'value_error');
  const caller = actor.kind === 'user' || actor.kind === 'api_key' ? actor : null;
  const def = TIERS[tier];
  const rateLimit = tier === 'enterprise' ? (input.rate_limit ?? def.perMinute) : def.perMinute;
  const keyInput = {
    name: input.name ?? `Developer API key (${tier})`,
    role: 'VIEWER' as const,
    ...(input.ip_allowlist ? { ip_allowlist: input.ip_allowlist } : {}),
  };
  const developer = { tier, rateLimit: tier === 'enterprise' ? rateLimit : null };
  let key: Awaited<ReturnType<typeof createApiKey>>;
  if (!caller || !callerTenant) {
    if (tier !== 'free')
      throw new UnauthorizedError(
        `A ${tier} key needs the bearer token of a TENANT_ADMIN; only free keys are self-serve`,
      );
    // The account, its tenant and its key in one transaction: a failure leaves none of them.
    let made: ReturnType<typeof newApiKey> | undefined;
    await openDeveloperAccount(actor, input.email, (registrant, tenantId) => {
      made = newApiKey(registrant, tenantId, keyInput, developer);
      return made.writes;
    });
    key = made!.key;
  } else {
    key = await createApiKey(checkedIssuer(caller, tier), callerTenant, keyInput, developer);
  }
  return {
    api_key: key.api_key,
    key_id: key.key_id,
    tenant_id: key.tenant_id,
    tier,
    rate_limit: rateLimit,
    monthly_quota: def.monthlyQuota,
    endpoints: def.endpoints,
  };
}

/** The caller may mint a key of `tier`: a person (not a key), a TENANT_ADMIN, on a plan that allows it. */
function checkedIssuer(actor: CallerActor, tier: DeveloperTier): CallerActor {
  const { principal } = actor;
  if (principal.via === 'api_key') throw new ForbiddenError('An API key cannot mint keys: send a bearer token');
  if (!roleSatisfies(principal.role, 'TENANT_ADMIN')) throw new ForbiddenError('Keys are issued by a TENANT_ADMIN');
  if (!planAllowsTier(principal.plan ?? 'free', tier))
    throw new ForbiddenError(`The ${principal.plan} plan does not allow ${tier} keys`);
  return actor;
}

/** Revokes a key of the tenant: the calling key itself, or any key for a TENANT_ADMIN. */
export async function revokeDeveloperKey(actor: CallerActor, tenantId: TenantId, keyId: string): Promise<void> {
  const own = actor.principal.apiKeyId === keyId;
  if (!own && !roleSatisfies(actor.principal.role, 'TENANT_ADMIN')) {
    // Another key of the tenant is not the caller's to revoke; one of another tenant is unknown.
    throw new NotFoundError(API_KEY_NOT_FOUND);
  }
  await revokeApiKey(actor, keyId, tenantId);
}
