/**
 * The service's queues (shared/workers.ts QUEUES), each with its dead-letter queue (a redrive
 * policy moves a message there after `maxReceiveCount` receives), encrypted and TLS-only; and, for
 * a queue fed by the bus, the rule on the service's bus that sends matching events to it (with a
 * dead-letter queue of its own for events EventBridge could not put on the queue).
 *
 * The alarm on each dead-letter queue belongs to the worker that reads the queue
 * (lib/worker-function.ts), as for every worker.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueDef, type QueueTarget } from '../shared/workers.js';
import { DEAD_LETTER_RETENTION, ruleEventPattern } from './worker-function.js';

export interface QueuesProps {
  readonly bus: events.IEventBus;
  /** Keep the queues (and what they hold) when the stack goes. */
  readonly retain: boolean;
  readonly queues?: readonly QueueDef[];
}

export class Queues extends Construct {
  /** Each queue and each dead-letter queue, by target name (`<id>`, `<id>:dead-letters`). */
  readonly byTarget = new Map<QueueTarget, sqs.Queue>();
  readonly rules = new Map<string, events.Rule>();

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it `def` is the union of the literal entries and tsc refuses def.busRule
    for (const def of props.queues ?? (QUEUES as readonly QueueDef[])) {
      const deadLetters = new sqs.Queue(this, `${def.id}-dead-letters`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: DEAD_LETTER_RETENTION,
        removalPolicy,
      });
      const queue = new sqs.Queue(this, def.id, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        retentionPeriod: Duration.seconds(def.retentionSeconds),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: def.maxReceiveCount },
        removalPolicy,
      });
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed once `def` is a QueueDef (above)
      this.byTarget.set(def.id as QueueTarget, queue);
      this.byTarget.set(`${def.id}:dead-letters` as QueueTarget, deadLetters);
      if (def.busRule) {
        this.rules.set(
          def.id,
          new events.Rule(this, `${def.id}-rule`, {
            eventBus: props.bus,
            description: `Gatehouse: feeds the ${def.id} queue`,
            eventPattern: ruleEventPattern(def.busRule),
            // EventBridge retries for 24 hours; what it still cannot put goes to the dead letters.
            targets: [new targets.SqsQueue(queue, { deadLetterQueue: deadLetters, retryAttempts: 185 })],
          }),
        );
      }
    }
  }

  /** The ARN and URL of every queue and dead-letter queue, by target name. */
  refs(): Record<string, { arn: string; url: string }> {
    return Object.fromEntries([...this.byTarget].map(([target, q]) => [target, { arn: q.queueArn, url: q.queueUrl }]));
  }
}
