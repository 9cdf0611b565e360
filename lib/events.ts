/**
 * The EventBridge bus domain events go to, one per stage, with an archive so events can be
 * replayed after a consumer bug (archiving costs only for the events stored).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';

export interface EventsProps {
  readonly stage: string;
  readonly archiveRetention: Duration;
}

export class Events extends Construct {
  readonly bus: events.EventBus;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', { eventBusName: `gatehouse-${props.stage}` });
    this.bus.archive('Archive', {
      description: `Every event on gatehouse-${props.stage}, for replay`,
      // An archive needs a pattern; the account matches every event on the bus.
      eventPattern: { account: [Stack.of(this).account] },
      retention: props.archiveRetention,
    });
  }
}
