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

const KEY = Symbol.for('gatehouse.tenantScope');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<TenantScope> | undefined>;
const store = (holder[KEY] ??= new AsyncLocalStorage<TenantScope>());

/** Runs `work` in `scope`: its table and bucket calls on tenant data run as that tenant. */
export function withTenantScope<T>(scope: TenantScope, work: () => T): T {
  return store.run(scope, work);
}

/** The scope of the current invocation, if the edge decided a tenant. */
export const tenantScope = (): TenantScope | undefined => store.getStore();

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
