/**
 * The seam between the code that ships and the runtime hosting it: the stand-ins a runtime gives
 * in place of AWS services (the event bus, the queues, the mailer, ...), by name.
 *
 * In Lambda nothing sets a port: every adapter builds its AWS client. The local runtime
 * (shared/local/compose.ts) sets its stand-ins before any handler loads. The ports live on
 * `globalThis`, not in this module, because a deployed bundle carries its own copy of every
 * module: when the local server imports the bundles (`GATEHOUSE_HANDLERS=bundles`), each bundle's
 * adapters find the same stand-ins as the sources do.
 */

const KEY = Symbol.for('gatehouse.runtimePorts');

/** What a runtime may provide. The adapters own the types; each reads its port by name. */
export type PortName =
  | 'eventBus'
  | 'queues'
  | 'mailer'
  | 'secretBox'
  /** Makes and checks the MACs that seal audit entries (shared/db/audit/seal.ts). */
  | 'auditMac'
  | 'speechRecognizer'
  | 'incidentAi'
  | 'lakeEngine'
  | 'lakeCatalog'
  | 'connectorSchedules'
  /** Credentials for one tenant's data instead of STS (shared/adapters/tenant-credentials.ts). */
  | 'tenantCredentials'
  /** The session policy of the worker running, where workers share one environment (shared/adapters/tenant-credentials.ts). */
  | 'tenantSessionPolicy'
  /** The local server's URL, known once it listens (shared/config.ts). */
  | 'localPublicApiUrl'
  /** Which handlers the runtime serves (`sources` or `bundles`), for /health; unset in Lambda. */
  | 'handlers'
  /** Called with every AWS SDK client the shared modules make (the local IAM check). */
  | 'sdkClientMade';

type Ports = Partial<Record<PortName, unknown>>;

function ports(): Ports {
  const holder = globalThis as unknown as Record<symbol, Ports | undefined>;
  return (holder[KEY] ??= {});
}

/** The stand-in the runtime set for `name`, if any. */
export function portOf<T>(name: PortName): T | undefined {
  return ports()[name] as T | undefined;
}

/** Sets (or, with `undefined`, clears) the stand-in for `name`. */
export function setPort(name: PortName, value: unknown): void {
  if (value === undefined) delete ports()[name];
  else ports()[name] = value;
}

/** Hands a newly made AWS SDK client to the runtime (which may add middleware to it); returns it. */
export function sdkClient<T extends object>(client: T, service: string): T {
  portOf<(client: object, service: string) => void>('sdkClientMade')?.(client, service);
  return client;
}

/**
 * For the errors a port's contract names (an unrunnable lake query, no speech recogniser): whether
 * `value` is one, by its `name`. A stand-in throws its own copy of the class, which is not a
 * bundle's copy, so `instanceof` by identity would miss it; these classes answer `instanceof` with this.
 */
export function isNamedError(value: unknown, name: string): boolean {
  return value instanceof Error && value.name === name;
}
