/**
 * What the people who run a stage look at and are paged by: the stage's metrics
 * (lib/stage-metrics.ts), its alarms (lib/alarms.ts, wired to the topic of lib/alarm-topic.ts) and
 * its dashboard (lib/dashboard.ts). docs/runbook.md has an entry per alarm; each alarm's
 * description names it.
 */
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { addAlarms } from './alarms.js';
import { addDashboard } from './dashboard.js';
import { StageMetrics, type StageMetricsProps } from './stage-metrics.js';

export interface ObservabilityProps extends StageMetricsProps {
  readonly topic: sns.ITopic;
}

export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  /** The stage's alarms but the workers' dead-letter ones (lib/worker-function.ts). */
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    // The metric filters, alarms and dashboard are this construct's children, whatever file makes them.
    const metrics = new StageMetrics(this, props);
    this.alarms = addAlarms(this, metrics, props.topic);
    const deadLetters = [...props.workers.values()].map((w) => w.deadLetterAlarm);
    this.dashboard = addDashboard(this, metrics, [...this.alarms, ...deadLetters]);
  }
}
