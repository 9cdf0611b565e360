/**
 * The tenant whose data an invocation acts on, with the credentials scoped to it
 * (docs/architecture.md, 27): set by the handler chain once it decided the tenant, read by the
 * table's client (shared/db/client.ts) and the bucket's (shared/adapters/s3.ts), which run every
 * call on that tenant's data with these credentials. On `globalThis`, like the runtime ports: the
 * local IAM check sees the scope a bundle set.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The session tag naming the tenant: the TenantData role's policy reads `${aws:PrincipalTag/tenant_id}`.
 * Here, not in shared/adapters/tenant-credentials.ts, which reads the configuration: the CDK app
 * (lib/tenant-data.ts) imports it, and the local bundles' synth runs before any configuration.
 */
export const TENANT_TAG = 'tenant_id';

export interface ScopedCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export interface TenantScope {
  tenantId: string;
  /** The tenant's credentials (cached by whoever gives them). */
  credentials: () => Promise<ScopedCredentials>;
}

/** Makes the scope of a tenant for the function that runs (its session policy): set per invocation. */
export type ScopeMaker = (tenantId: string) => TenantScope;

/** What the store holds for one invocation: how to scope a tenant, and the scope once decided. */
interface Cell {
  make?: ScopeMaker;
  scope?: TenantScope;
  /** Acting on several tenants: each call runs as the tenant its keys name (`enterEachTenant`). */
  each?: boolean;
}

const KEY = Symbol.for('gatehouse.tenantScope');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<Cell> | undefined>;
const store = (holder[KEY] ??= new AsyncLocalStorage<Cell>());

/** Runs `work` in `scope`: its table and bucket calls on tenant data run as that tenant. */
export function withTenantScope<T>(scope: TenantScope, work: () => T): T {
  return store.run({ scope }, work);
}

/**
 * Runs `work`, one invocation of a function on tenant data, with no tenant yet: the steps that
 * decide it set it with `enterTenant` (the handler chain's), or run a part as one tenant with
 * `asTenant`; `make` gives the scope of a tenant.
 */
export function withUndecidedTenant<T>(make: ScopeMaker, work: () => T): T {
  return store.run({ make }, work);
}

/**
 * Decides the tenant of the current invocation (`withUndecidedTenant`): the rest of it, however
 * deep, runs as `tenantId`; `undefined` runs the rest with the function's own role.
 */
export function enterTenant(tenantId: string | undefined): void {
  const cell = store.getStore();
  if (!cell?.make) throw new Error('enterTenant outside withUndecidedTenant: no invocation to decide a tenant for');
  cell.scope = tenantId === undefined ? undefined : cell.make(tenantId);
}

/**
 * Runs `work` as `tenantId`, inside an invocation that may act on several tenants (a SUPER_ADMIN's
 * batch of events) or learns its tenant from what it reads (a public report's key). Outside an
 * invocation of a function on tenant data it runs `work` as it is.
 */
export function asTenant<T>(tenantId: string, work: () => T): T {
  const make = store.getStore()?.make;
  return make ? store.run({ make, scope: make(tenantId) }, work) : work();
}

/**
 * Decides that the current invocation acts on several tenants, each of its calls as the one tenant
 * its keys name (a SUPER_ADMIN's batch of events for several tenants): a call naming two tenants
 * is refused, as their credentials reach one each.
 */
export function enterEachTenant(): void {
  const cell = store.getStore();
  if (!cell?.make) throw new Error('enterEachTenant outside withUndecidedTenant: no invocation to decide tenants for');
  cell.scope = undefined;
  cell.each = true;
}

/**
 * Runs `work` acting on several tenants, each of its calls as the one tenant its keys name (as
 * `enterEachTenant`, for a part of an invocation: a worker's batch of many tenants' messages, a
 * sweep over every tenant). Outside an invocation of a function on tenant data it runs `work` as
 * it is.
 */
export function asEachTenant<T>(work: () => T): T {
  const make = store.getStore()?.make;
  return make ? store.run({ make, each: true }, work) : work();
}

/** In an invocation acting on several tenants, the scope of the tenant a call names. */
export function eachTenantScope(tenantId: string): TenantScope | undefined {
  const cell = store.getStore();
  return cell?.each && cell.make ? cell.make(tenantId) : undefined;
}

/**
 * The current invocation's tenant, kept for work that runs after the invocation's steps returned
 * (a streamed body): the function it returns runs `work` as the tenant (or tenants) decided.
 */
export function keepTenantScope(): <T>(work: () => T) => T {
  const cell = store.getStore();
  return (work) => (cell ? store.run(cell, work) : work());
}

/** The scope of the current invocation, if a tenant was decided. */
export const tenantScope = (): TenantScope | undefined => store.getStore()?.scope;

type Provider = (options?: Record<string, unknown>) => Promise<ScopedCredentials>;

interface ChoosingClient {
  config: { credentials: Provider & { memoized?: boolean } };
  middlewareStack: {
    add: (
      middleware: (
        next: (args: { input: Record<string, unknown> }) => Promise<unknown>,
        context: { commandName?: string },
      ) => (args: { input: Record<string, unknown> }) => Promise<unknown>,
      options: { step: 'initialize'; priority: 'high'; name: string },
    ) => void;
  };
}

/**
 * Makes `client` pick its credentials per call: those of the scope `decide` returns for the call
 * (its command and input), else the client's own (the function's role). The choice is made first
 * thing in the call and read when the SDK resolves the credentials to sign it; the provider is
 * marked memoized so the SDK asks it on every call instead of keeping its first answer.
 */
export function chooseCredentialsPerCall(
  client: object,
  decide: (command: string, input: Record<string, unknown>) => TenantScope | undefined,
): void {
  const c = client as ChoosingClient;
  const own = c.config.credentials;
  const choice = new AsyncLocalStorage<TenantScope | undefined>();
  const provider: Provider = (options) => {
    const scope = choice.getStore();
    return scope ? scope.credentials() : own(options);
  };
  c.config.credentials = Object.assign(provider, { memoized: true });
  c.middlewareStack.add(
    (next, context) => (args) => choice.run(decide(context.commandName ?? '', args.input), () => next(args)),
    { step: 'initialize', priority: 'high', name: 'gatehouseTenantCredentials' },
  );
}
