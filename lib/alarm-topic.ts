/**
 * The SNS topic every alarm of a stage notifies (lib/alarms.ts, and the workers' dead-letter
 * alarms), and its e-mail subscription.
 */
import { CfnCondition, CfnParameter, Fn, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  readonly stage: string;
  /** A topic of yours instead of the stack's own. */
  readonly topicArn?: string;
  /** The default of the AlarmEmail parameter (context `alarmEmail`). */
  readonly email?: string;
}

/**
 * The topic every alarm notifies, encrypted with a key of its own (CloudWatch cannot publish to a
 * topic under the AWS-managed SNS key), and an e-mail subscription to it when the stack's
 * `AlarmEmail` parameter (default: context `alarmEmail`) is not empty.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.ITopic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    if (props.topicArn) {
      this.topic = sns.Topic.fromTopicArn(this, 'Topic', props.topicArn);
    } else {
      const key = new kms.Key(this, 'Key', {
        description: `Gatehouse ${props.stage}: encrypts the alarm topic`,
        enableKeyRotation: true,
      });
      // CloudWatch encrypts what it publishes with the topic's key.
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          resources: ['*'],
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
      );
      const topic = new sns.Topic(this, 'Topic', {
        topicName: `gatehouse-${props.stage}-alarms`,
        displayName: `Gatehouse ${props.stage} alarms`,
        masterKey: key,
        enforceSSL: true,
      });
      // The stack's topic policy replaces SNS's default one: CloudWatch (this account's alarms) may publish.
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
      );
      this.topic = topic;
    }
    const email = new CfnParameter(Stack.of(this), 'AlarmEmail', {
      type: 'String',
      default: props.email ?? '',
      description: 'An e-mail address the alarm topic notifies (it must confirm the subscription); empty: none',
      allowedPattern: '^$|^[^\\s@<>]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, '')),
    });
    const subscription = new sns.CfnSubscription(this, 'Email', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: email.valueAsString,
    });
    subscription.cfnOptions.condition = hasEmail;
  }
}
