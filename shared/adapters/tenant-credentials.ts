/**
 * Credentials scoped to one tenant, for the calls on its data (docs/architecture.md, 27):
 * in AWS the TenantData role (`TENANT_DATA_ROLE_ARN`, lib/tenant-data.ts) assumed with the session
 * tag `tenant_id`, whose policy allows only that tenant's partitions and objects; under
 * `npm start` and the tests a local adapter (shared/local/compose.ts) that needs no STS, the local
 * IAM check (shared/local/iam-check.ts) evaluating the same policy on every call instead.
 *
 * Which tenant: the one the edge decided for the invocation (`tenantScopeOf`, which the handler
 * chain sets with shared/tenant-scope.ts); the table's and bucket's clients pick these credentials
 * for every call on its data.
 */
import { config } from '../config.js';
import { portOf, setPort } from '../runtime-ports.js';
import { TENANT_TAG, type ScopedCredentials, type TenantScope } from '../tenant-scope.js';
import { StsAssumeRole, type AssumeRoleInput } from './sts-assume-role.js';

/**
 * Gives credentials for a tenant, narrowed by `sessionPolicy` (the route's own actions,
 * shared/iam.ts `tenantSessionPolicy`): the port a runtime may set instead of STS.
 */
export type TenantCredentialsSource = (tenantId: string, sessionPolicy: string) => Promise<ScopedCredentials>;

/** Role chaining (a function's role assuming another) allows one hour at most. */
export const SESSION_SECONDS = 3600;
/**
 * Assumed again this long before the credentials expire: a presigned upload URL (15 minutes)
 * signed with them stays valid for its whole life.
 */
export const REFRESH_BEFORE_MS = 20 * 60_000;
/** Tenants cached per container at most; the oldest goes first. */
const MAX_TENANTS = 500;

interface StsLike {
  assumeRole: (input: AssumeRoleInput) => Promise<ScopedCredentials>;
}

/**
 * The TenantData role, assumed once per tenant per container and kept until REFRESH_BEFORE_MS
 * before its credentials expire; the first calls of a tenant made at once share one AssumeRole.
 */
export class AssumedTenantCredentials {
  private readonly cache = new Map<string, Promise<ScopedCredentials>>();

  constructor(
    private readonly roleArn: string,
    private readonly sts: StsLike,
    private readonly now: () => number = Date.now,
  ) {}

  credentialsFor: TenantCredentialsSource = (tenantId, sessionPolicy) => {
    // One route per function: the session policy is the same for every call of a container.
    const key = `${tenantId}\n${sessionPolicy}`;
    const cached = this.cache.get(key);
    if (cached) return cached.then((c) => (this.fresh(c) ? c : this.assume(key, tenantId, sessionPolicy, cached)));
    return this.assume(key, tenantId, sessionPolicy);
  };

  private fresh(c: ScopedCredentials): boolean {
    return c.expiration === undefined || c.expiration.getTime() - this.now() > REFRESH_BEFORE_MS;
  }

  /** One AssumeRole for the tenant, unless another call replaced `stale` already. */
  private assume(
    key: string,
    tenantId: string,
    sessionPolicy: string,
    stale?: Promise<ScopedCredentials>,
  ): Promise<ScopedCredentials> {
    const current = this.cache.get(key);
    if (current && current !== stale) return current;
    const pending = this.sts.assumeRole({
      roleArn: this.roleArn,
      roleSessionName: `tenant-${tenantId}`.slice(0, 64),
      durationSeconds: SESSION_SECONDS,
      tags: { [TENANT_TAG]: tenantId },
      policy: sessionPolicy,
    });
    this.cache.delete(key);
    if (this.cache.size >= MAX_TENANTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, pending);
    // A failure is not kept: the next call tries again.
    pending.catch(() => {
      if (this.cache.get(key) === pending) this.cache.delete(key);
    });
    return pending;
  }
}

/** Where the program is composed: the source to use instead of STS (shared/runtime-ports.ts). */
export function useTenantCredentials(source: TenantCredentialsSource): void {
  setPort('tenantCredentials', source);
}

/**
 * Under `npm start` and the tests (the stand-ins need no STS): the process's own (dummy)
 * credentials; the local IAM check (shared/local/iam-check.ts) evaluates the TenantData role's
 * policy on every call made with them instead.
 */
export const localTenantCredentials: TenantCredentialsSource = async () => ({
  accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local',
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
});

let assumed: AssumedTenantCredentials | undefined;

/**
 * The source of the deployment: the runtime's port, else the TenantData role (the local one
 * against the local stand-ins). Without either there are no tenant credentials to give, and a call
 * on tenant data fails rather than run with the function's own role.
 */
export function tenantCredentials(): TenantCredentialsSource {
  const port = portOf<TenantCredentialsSource>('tenantCredentials');
  if (port) return port;
  if (!config.tenantDataRoleArn && config.endpoints.dynamodb) return localTenantCredentials;
  if (!config.tenantDataRoleArn)
    throw new Error('TENANT_DATA_ROLE_ARN is not set: there are no credentials for tenant data');
  assumed ??= new AssumedTenantCredentials(
    config.tenantDataRoleArn,
    new StsAssumeRole({ region: config.region, endpoint: config.endpoints.sts }),
  );
  return assumed.credentialsFor;
}

/**
 * The scope of `tenantId` for shared/tenant-scope.ts: its data's calls run with its credentials,
 * narrowed to `sessionPolicy`.
 */
export function tenantScopeOf(tenantId: string, sessionPolicy: string): TenantScope {
  return { tenantId, credentials: () => tenantCredentials()(tenantId, sessionPolicy) };
}

/**
 * A worker's session policy (the worker table, which holds its grants, is not in its bundle):
 * TENANT_SESSION_POLICY, which the stack sets from its grants (lib/worker-function.ts); under
 * `npm start` and the tests the runtime's port gives the policy of the worker running
 * (shared/local/iam-check.ts `runAs`), as every worker there shares one environment.
 */
function workerSessionPolicy(): string {
  const policy = config.tenantSessionPolicy ?? portOf<() => string | undefined>('tenantSessionPolicy')?.();
  if (policy === undefined)
    throw new Error('TENANT_SESSION_POLICY is not set: a worker on tenant data needs its session policy');
  return policy;
}

/** The scope of `tenantId` for a worker: its calls on that tenant's data run with its credentials. */
export function workerScopeOf(tenantId: string): TenantScope {
  return { tenantId, credentials: () => tenantCredentials()(tenantId, workerSessionPolicy()) };
}
