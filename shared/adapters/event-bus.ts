/**
 * The project's event bus: EventBridge PutEvents, unless the program was composed with another
 * (the local runtime installs its in-process bus: shared/local/compose.ts). Either way it speaks
 * the domain's `PutEntries` port: one outcome per entry, a per-entry error code where the bus
 * refused one.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { config } from '../config.js';
import type { BusEntry, EntryOutcome } from '../vocabulary/bus.js';
import { portOf, setPort } from '../runtime-ports.js';
import { tracedClient } from '../tracing.js';

export interface EventBus {
  readonly name: string;
  readonly mode: 'aws' | 'local';
  putEntries(entries: readonly BusEntry[]): Promise<EntryOutcome[]>;
}

/** PutEvents to `busName` (at most 10 entries a call: the domain chunks). */
export function awsEventBus(busName: string, client: EventBridgeClient): EventBus {
  return {
    name: busName,
    mode: 'aws',
    async putEntries(entries) {
      const out = await client.send(
        new PutEventsCommand({
          Entries: entries.map((e) => ({
            EventBusName: busName,
            Source: e.source,
            DetailType: e.detailType,
            Detail: JSON.stringify(e.detail),
            Time: new Date(e.time),
          })),
        }),
      );
      const results = out.Entries ?? [];
      // PutEvents answers one result per entry, in order. Without them only the count says
      // whether something failed, and not what: then every entry is sent again.
      if (results.length !== entries.length) {
        const failed = (out.FailedEntryCount ?? 0) > 0;
        return entries.map(() =>
          failed
            ? { errorCode: 'UnknownEntryResult', errorMessage: 'PutEvents reported failures without per-entry results' }
            : {},
        );
      }
      return results.map((r) => (r.ErrorCode ? { errorCode: r.ErrorCode, errorMessage: r.ErrorMessage ?? '' } : {}));
    },
  };
}

let eventBridge: EventBus | undefined;

/** Where the program is composed: the bus to publish to instead of EventBridge (shared/runtime-ports.ts). */
export function useEventBus(bus: EventBus): void {
  setPort('eventBus', bus);
}

/** The bus this deployment publishes to (EventBridge's `config.eventBusName`); created on first use. */
export function projectEventBus(): EventBus {
  return (
    portOf<EventBus>('eventBus') ??
    (eventBridge ??= awsEventBus(config.eventBusName, tracedClient(new EventBridgeClient({ region: config.region }))))
  );
}
