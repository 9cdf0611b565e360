/**
 * Connectors' schedules in AWS (shared/adapters/connector-schedules.ts): one EventBridge Scheduler
 * schedule per connector, in the deployment's group, invoking the poller with the connector's own
 * input through the schedules' role. No local counterpart of Scheduler: its client is mocked
 * (aws-sdk-client-mock), and the local timers are tested in async-workers.test.ts.
 */
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { awsConnectorSchedules } from '../../shared/adapters/connector-schedules.js';

const settings = {
  group: 'gatehouse-prod-connectors',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  standard: {
    pollerArn: 'arn:aws:lambda:eu-west-1:123456789012:function:gatehouse-prod-connector-poll',
    deadLetterArn: 'arn:aws:sqs:eu-west-1:123456789012:gatehouse-prod-connector-poll-dead-letters',
  },
  large: {
    pollerArn: 'arn:aws:lambda:eu-west-1:123456789012:function:gatehouse-prod-connector-poll-large',
    deadLetterArn: 'arn:aws:sqs:eu-west-1:123456789012:gatehouse-prod-connector-poll-large-dead-letters',
  },
};
const scheduler = mockClient(SchedulerClient);
const schedules = awsConnectorSchedules(settings, new SchedulerClient({ region: 'eu-west-1' }));
const ID = '0190f2a4-1b2c-7d3e-8f40-123456789abc';
const notFound = () =>
  new ResourceNotFoundException({
    message: 'Schedule conn-x does not exist.',
    Message: 'Schedule conn-x does not exist.',
    $metadata: {},
  });

beforeEach(() => scheduler.reset());
// The stub is on the SDK's client class, which the next file of this worker shares (fresh-file.ts).
afterAll(() => scheduler.restore());

describe('awsConnectorSchedules', () => {
  it('creates a schedule the first time: rate(n minutes), the connector as input, the role, no retry, the dead letters', async () => {
    scheduler.on(UpdateScheduleCommand).rejects(notFound());
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await schedules.put({ tenantId: 't-1', integrationId: ID, everyMinutes: 15, enabled: true, large: false });
    const [created] = scheduler.commandCalls(CreateScheduleCommand);
    expect(created!.args[0].input).toMatchObject({
      Name: `conn-${ID}`,
      GroupName: settings.group,
      ScheduleExpression: 'rate(15 minutes)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: settings.standard.pollerArn,
        RoleArn: settings.roleArn,
        RetryPolicy: { MaximumRetryAttempts: 0 },
        DeadLetterConfig: { Arn: settings.standard.deadLetterArn },
      },
    });
    expect(JSON.parse(created!.args[0].input.Target!.Input!)).toEqual({ tenant_id: 't-1', integration_id: ID });
  });

  it('sends a feed that needs the memory (an RPKI export) to the 2 GB poller and its dead letters', async () => {
    scheduler.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await schedules.put({ tenantId: 't-1', integrationId: ID, everyMinutes: 60, enabled: true, large: true });
    expect(scheduler.commandCalls(UpdateScheduleCommand)[0]!.args[0].input.Target).toMatchObject({
      Arn: settings.large.pollerArn,
      DeadLetterConfig: { Arn: settings.large.deadLetterArn },
    });
  });

  it('changes the schedule it has: another interval, or off while the connector is disabled', async () => {
    scheduler.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await schedules.put({ tenantId: 't-1', integrationId: ID, everyMinutes: 1440, enabled: false, large: false });
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    expect(scheduler.commandCalls(UpdateScheduleCommand)[0]!.args[0].input).toMatchObject({
      ScheduleExpression: 'rate(1440 minutes)',
      State: 'DISABLED',
    });
  });

  it('removes a schedule, and one already gone is no error; other errors are', async () => {
    scheduler.on(DeleteScheduleCommand).rejectsOnce(notFound()).resolves({});
    await schedules.remove(ID);
    await schedules.remove(ID);
    expect(scheduler.commandCalls(DeleteScheduleCommand).map((c) => c.args[0].input)).toEqual([
      { Name: `conn-${ID}`, GroupName: settings.group },
      { Name: `conn-${ID}`, GroupName: settings.group },
    ]);
    scheduler.on(UpdateScheduleCommand).rejects(new Error('AccessDenied'));
    await expect(
      schedules.put({ tenantId: 't-1', integrationId: ID, everyMinutes: 5, enabled: true, large: false }),
    ).rejects.toThrow('AccessDenied');
  });
});
