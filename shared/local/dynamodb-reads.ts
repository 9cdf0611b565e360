/**
 * Reads past a front that needs only the writes. The test run's item-size check
 * (test/support/item-size-check.ts) stands in front of DynamoDB Local to see every item written;
 * a read it would only pass on. Passed on, a read cost the stack's process about 0.3 ms of CPU more
 * (the proxy's server, its client, the answer piped back): some 60,000 reads a test run. So the
 * handlers' SDK clients send every call but a write to DynamoDB Local itself, and the front still
 * sees each write (its sizes, its wake-ups of the stream poller, the isolation suite's numbering).
 *
 * A read sent after a write answered sees it: the front answers a write only once DynamoDB Local
 * did. Local tooling only: production code never imports it.
 */
import { portOf, setPort } from '../runtime-ports.js';
import { WRITE_OPERATIONS } from './dynamodb-meter.js';

interface SdkClient {
  middlewareStack: { add: (middleware: unknown, options: { step: string; name: string }) => void };
}

interface BuildArgs {
  request: { hostname?: string; port?: number; headers?: Record<string, string> };
}

/** Where each routed client sends its reads: the last endpoint it was given. */
const readEndpoints = new WeakMap<object, URL>();

/** Sends the calls other than writes of `client` (a DynamoDB client) to `endpoint`. */
export function sendReadsTo(client: object, endpoint: string): void {
  const routed = readEndpoints.has(client);
  readEndpoints.set(client, new URL(endpoint));
  if (routed) return;
  (client as SdkClient).middlewareStack.add(
    (next: (args: BuildArgs) => Promise<unknown>) => async (args: BuildArgs) => {
      // `DynamoDB_20120810.GetItem`: the operation, as the wire names it.
      const operation = args.request.headers?.['x-amz-target']?.split('.')[1];
      const to = readEndpoints.get(client);
      if (to && operation !== undefined && !WRITE_OPERATIONS.has(operation)) {
        args.request.hostname = to.hostname;
        args.request.port = Number(to.port);
      }
      return next(args);
    },
    // Before the signature (finalizeRequest), which covers the host.
    { step: 'build', name: 'gatehouseLocalReadsDirect' },
  );
}

/**
 * From now on, the shared table client of the sources and every DynamoDB client made later (each
 * bundle's own, shared/runtime-ports.ts) send their reads to `endpoint`. Call after the other
 * hooks on new clients are set (the IAM check's): this one calls them first.
 */
export async function sendTableReadsTo(endpoint: string): Promise<void> {
  const before = portOf<(client: object, service: string) => void>('sdkClientMade');
  setPort('sdkClientMade', (client: object, service: string) => {
    before?.(client, service);
    if (service === 'dynamodb') sendReadsTo(client, endpoint);
  });
  const { db } = await import('../db/client.js');
  sendReadsTo(db, endpoint);
}
