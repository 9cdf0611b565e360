/**
 * What connectors' schedules need (docs/connectors.md): an EventBridge Scheduler schedule group,
 * the role Scheduler assumes to invoke the connector pollers (the `connector-poll` worker and its
 * 2 GB twin `connector-poll-large`, those functions and their dead-letter queues only). Made in the workers' stack, next to the worker; the routes that create,
 * change and delete connectors make the schedules in the group at run time
 * (shared/adapters/connector-schedules.ts).
 *
 * The group, the role, the worker's function and its dead-letter queue have fixed names, so the
 * routes' stacks name them without referring to the workers' stack, which itself refers to the API
 * (a cycle otherwise).
 */
import { ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ConnectorPoller } from '../shared/workers.js';

/** The fixed names of a stage's connector schedules' resources. */
export function connectorScheduleNames(stage: string) {
  return {
    group: `gatehouse-${stage}-connectors`,
    // IAM names are global to the account: the region keeps two regions' stages apart.
    role: `gatehouse-${stage}-${Aws.REGION}-connector-scheduler`,
    pollers: {
      standard: {
        poller: `gatehouse-${stage}-connector-poll`,
        deadLetters: `gatehouse-${stage}-connector-poll-dead-letters`,
      },
      large: {
        poller: `gatehouse-${stage}-connector-poll-large`,
        deadLetters: `gatehouse-${stage}-connector-poll-large-dead-letters`,
      },
    } satisfies Record<ConnectorPoller, { poller: string; deadLetters: string }>,
  };
}

export interface ConnectorScheduleRefs {
  group: string;
  roleArn: string;
  pollers: Record<ConnectorPoller, { pollerArn: string; deadLetterArn: string }>;
}

/** Their ARNs, made from the names (no reference to the workers' stack). */
export function connectorScheduleRefs(scope: Construct, stage: string): ConnectorScheduleRefs {
  const names = connectorScheduleNames(stage);
  const stack = Stack.of(scope);
  const refsOf = (p: { poller: string; deadLetters: string }) => ({
    pollerArn: stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: p.poller,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    }),
    deadLetterArn: stack.formatArn({ service: 'sqs', resource: p.deadLetters, arnFormat: ArnFormat.NO_RESOURCE_NAME }),
  });
  return {
    group: names.group,
    roleArn: stack.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: names.role }),
    pollers: { standard: refsOf(names.pollers.standard), large: refsOf(names.pollers.large) },
  };
}

/** The group and the role, next to the workers they invoke. */
export class ConnectorSchedules extends Construct {
  constructor(
    scope: Construct,
    id: string,
    props: { stage: string; pollers: readonly { function: lambda.IFunction; deadLetters: sqs.IQueue }[] },
  ) {
    super(scope, id);
    const names = connectorScheduleNames(props.stage);
    new scheduler.CfnScheduleGroup(this, 'Group', { name: names.group });
    const role = new iam.Role(this, 'Role', {
      roleName: names.role,
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'EventBridge Scheduler invoking the Gatehouse connector pollers',
    });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: props.pollers.map((p) => p.function.functionArn),
      }),
    );
    // An invocation Scheduler cannot make goes to the worker's own dead letters (alarmed).
    for (const p of props.pollers) p.deadLetters.grantSendMessages(role);
  }
}

/**
 * The schedules' references in a nested stack, as its parameters: the group and role for the
 * grants' statements, and the variables shared/config.ts reads.
 */
export function importConnectorSchedules(refs: ConnectorScheduleRefs, param: (name: string, value: string) => string) {
  const group = param('ConnectorScheduleGroup', refs.group);
  const roleArn = param('ConnectorSchedulerRoleArn', refs.roleArn);
  return {
    group,
    roleArn,
    environment: {
      CONNECTOR_SCHEDULE_GROUP: group,
      CONNECTOR_SCHEDULER_ROLE_ARN: roleArn,
      CONNECTOR_POLLER_ARN: param('ConnectorPollerArn', refs.pollers.standard.pollerArn),
      CONNECTOR_DEAD_LETTER_ARN: param('ConnectorDeadLetterArn', refs.pollers.standard.deadLetterArn),
      CONNECTOR_LARGE_POLLER_ARN: param('ConnectorLargePollerArn', refs.pollers.large.pollerArn),
      CONNECTOR_LARGE_DEAD_LETTER_ARN: param('ConnectorLargeDeadLetterArn', refs.pollers.large.deadLetterArn),
    },
  };
}
