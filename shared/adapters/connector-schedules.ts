/**
 * Each connector's schedule (docs/connectors.md): in AWS one EventBridge Scheduler schedule per
 * connector, `rate(n minutes)`, in the deployment's schedule group, invoking the `connector-poll`
 * worker (or its 2 GB twin `connector-poll-large` for a feed that needs it) with
 * `{tenant_id, integration_id}` (its role may invoke those functions and nothing else; an
 * invocation Scheduler cannot make goes to the invoked worker's dead-letter queue). Under `npm start`
 * the local runtime installs timers instead (shared/local/connector-timers.ts).
 */
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { config } from '../config.js';
import { portOf, setPort } from '../runtime-ports.js';
import { tracedClient } from '../tracing.js';

export interface ConnectorSchedule {
  tenantId: string;
  integrationId: string;
  everyMinutes: number;
  enabled: boolean;
  /** Its feed's document needs the 2 GB poller (an RPKI export). */
  large: boolean;
}

export interface ConnectorSchedules {
  readonly mode: 'aws' | 'local';
  /** Creates the connector's schedule, or changes it to this. */
  put(schedule: ConnectorSchedule): Promise<void>;
  /** Removes it; nothing when there is none. */
  remove(integrationId: string): Promise<void>;
}

/** The name of a connector's schedule (Scheduler allows 64 characters: 5 + a UUID's 36). */
export const scheduleName = (integrationId: string) => `conn-${integrationId}`;

/** What the poller is invoked with. */
export interface PollRequest {
  tenant_id: string;
  integration_id: string;
}

export interface PollerTarget {
  pollerArn: string;
  deadLetterArn: string;
}

export interface SchedulerSettings {
  group: string;
  roleArn: string;
  standard: PollerTarget;
  large: PollerTarget;
}

export function awsConnectorSchedules(settings: SchedulerSettings, client: SchedulerClient): ConnectorSchedules {
  return {
    mode: 'aws',
    async put(s) {
      const target = s.large ? settings.large : settings.standard;
      const input: CreateScheduleCommandInput = {
        Name: scheduleName(s.integrationId),
        GroupName: settings.group,
        ScheduleExpression: `rate(${s.everyMinutes} ${s.everyMinutes === 1 ? 'minute' : 'minutes'})`,
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: s.enabled ? 'ENABLED' : 'DISABLED',
        Description: `Gatehouse connector ${s.integrationId} of tenant ${s.tenantId}`,
        Target: {
          Arn: target.pollerArn,
          RoleArn: settings.roleArn,
          Input: JSON.stringify({ tenant_id: s.tenantId, integration_id: s.integrationId } satisfies PollRequest),
          // A poll that failed is not tried again at once: the next one comes within the interval.
          RetryPolicy: { MaximumRetryAttempts: 0 },
          DeadLetterConfig: { Arn: target.deadLetterArn },
        },
      };
      try {
        await client.send(new UpdateScheduleCommand(input));
      } catch (err) {
        if (!(err instanceof ResourceNotFoundException)) throw err;
        await client.send(new CreateScheduleCommand(input));
      }
    },
    async remove(integrationId) {
      try {
        await client.send(new DeleteScheduleCommand({ Name: scheduleName(integrationId), GroupName: settings.group }));
      } catch (err) {
        if (!(err instanceof ResourceNotFoundException)) throw err;
      }
    },
  };
}

let scheduler: ConnectorSchedules | undefined;

/** Where the program is composed: the schedules to keep instead of EventBridge Scheduler's (shared/runtime-ports.ts). */
export function useConnectorSchedules(schedules: ConnectorSchedules): void {
  setPort('connectorSchedules', schedules);
}

/** The deployment's connector schedules; created on first use from its configuration. */
export function connectorSchedules(): ConnectorSchedules {
  return (
    portOf<ConnectorSchedules>('connectorSchedules') ??
    (scheduler ??= awsConnectorSchedules(
      requiredSettings(),
      tracedClient(new SchedulerClient({ region: config.region })),
    ))
  );
}

function requiredSettings(): SchedulerSettings {
  const s = config.connectors;
  if (
    !s.scheduleGroup ||
    !s.pollerArn ||
    !s.schedulerRoleArn ||
    !s.deadLetterArn ||
    !s.largePollerArn ||
    !s.largeDeadLetterArn
  ) {
    throw new Error(
      'connector schedules are not configured: CONNECTOR_SCHEDULE_GROUP, CONNECTOR_SCHEDULER_ROLE_ARN, CONNECTOR_POLLER_ARN, CONNECTOR_DEAD_LETTER_ARN, CONNECTOR_LARGE_POLLER_ARN and CONNECTOR_LARGE_DEAD_LETTER_ARN',
    );
  }
  return {
    group: s.scheduleGroup,
    roleArn: s.schedulerRoleArn,
    standard: { pollerArn: s.pollerArn, deadLetterArn: s.deadLetterArn },
    large: { pollerArn: s.largePollerArn, deadLetterArn: s.largeDeadLetterArn },
  };
}
