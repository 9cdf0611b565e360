/**
 * Connectors' schedules under `npm start` (docs/connectors.md): a timer per connector, kept by the
 * local runtime's asynchronous workers (shared/local/async-workers.ts `itemSchedules`), invoking
 * the same `connector-poll` worker with the same input EventBridge Scheduler would. The timers run
 * only with LOCAL_CONNECTORS=on (a machine without network would only record failures); without
 * it the schedules are kept, off. When the stack starts with the timers on, every tenant's
 * connectors are armed again from the table (a schedule in AWS outlives the process; a timer
 * does not).
 */
import { scheduleName, type ConnectorSchedules, type PollRequest } from '../adapters/connector-schedules.js';

/** A `scheduler` worker's schedules made at run time (EventBridge Scheduler's, in AWS), as timers. */
export interface ItemSchedules {
  /** Creates or changes the schedule `name`: every so many minutes, invoking the worker with `input`. */
  put(name: string, everyMinutes: number, enabled: boolean, input: unknown): void;
  remove(name: string): void;
  /** The schedules kept, by name (on or off). */
  readonly names: () => string[];
}

let items: ItemSchedules | undefined;

/** The stack's worker timers, once its asynchronous workers run. */
export function setConnectorTimers(schedules: ItemSchedules | undefined): void {
  items = schedules;
}

/** The adapter the local runtime installs: the timers when the workers run, nothing otherwise. */
export function localConnectorSchedules(): ConnectorSchedules {
  return {
    mode: 'local',
    put: async (s) =>
      items?.put(scheduleName(s.integrationId), s.everyMinutes, s.enabled, {
        tenant_id: s.tenantId,
        integration_id: s.integrationId,
      } satisfies PollRequest),
    remove: async (integrationId) => items?.remove(scheduleName(integrationId)),
  };
}
