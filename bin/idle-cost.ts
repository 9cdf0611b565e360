/**
 * What a deployed stage costs a month with no traffic at all, computed from its synthesized
 * templates (a script that prints figures, not a test):
 *
 *   npx tsx bin/idle-cost.ts
 *
 * Counted: what bills by the month whether used or not (CloudWatch alarms, KMS keys, Secrets
 * Manager secrets, dashboards) and the scheduled workers' own invocations (each schedule runs its
 * function whether or not a tenant has data). Everything else of the stack bills by use (requests,
 * GB stored or scanned) and costs nothing idle, or within free tiers; the lines at the end name
 * what is left out. us-east-1 list prices; free tiers are not subtracted.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- reads synthesized CloudFormation, JSON whose shape CDK owns */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../lib/function.js';
import { GatehouseStack } from '../lib/gatehouse-stack.js';

const PRICE = {
  /** CloudWatch: a standard-resolution alarm on one metric, a month. */
  alarm: 0.1,
  /** KMS: a customer managed key, a month. */
  kmsKey: 1.0,
  /** Secrets Manager: a secret, a month. */
  secret: 0.4,
  /** CloudWatch: a dashboard, a month. */
  dashboard: 3.0,
  /** Lambda on arm64: a request, and a GB-second. */
  lambdaRequest: 0.2 / 1_000_000,
  lambdaGbSecond: 0.0000133334,
};
/** An assumption, not a measurement: how long a scheduled worker runs when there is nothing to do. */
const IDLE_RUN_SECONDS = 0.2;
const MINUTES_A_MONTH = 730 * 60;

const { context } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
// Templates only: nothing is bundled.
const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
const stack = new GatehouseStack(app, 'Gatehouse-idle', { stage: 'prod', deletionProtection: true });
const resources = [stack, ...stack.routeStacks, stack.workersStack]
  .map((s) => Template.fromStack(s).toJSON() as { Resources?: Record<string, any> })
  .flatMap((t) => Object.entries(t.Resources ?? {}));

const count = (type: string) => resources.filter(([, r]) => r.Type === type).length;
const lines: [string, number][] = [
  [`${count('AWS::CloudWatch::Alarm')} CloudWatch alarms`, count('AWS::CloudWatch::Alarm') * PRICE.alarm],
  [`${count('AWS::KMS::Key')} KMS keys`, count('AWS::KMS::Key') * PRICE.kmsKey],
  [
    `${count('AWS::SecretsManager::Secret')} Secrets Manager secrets`,
    count('AWS::SecretsManager::Secret') * PRICE.secret,
  ],
  [
    `${count('AWS::CloudWatch::Dashboard')} CloudWatch dashboards`,
    count('AWS::CloudWatch::Dashboard') * PRICE.dashboard,
  ],
];

// Scheduled rules: each invokes its function every `rate(N minutes)`.
const byId = new Map(resources);
for (const [, rule] of resources) {
  const schedule =
    rule.Type === 'AWS::Events::Rule' ? (rule.Properties.ScheduleExpression as string | undefined) : undefined;
  if (!schedule) continue;
  const minutes = Number(/^rate\((\d+) minutes?\)$/.exec(schedule)?.[1]);
  if (!minutes) throw new Error(`a schedule this script cannot read: ${schedule}`);
  const target = rule.Properties.Targets[0].Arn['Fn::GetAtt'][0] as string;
  const fn = byId.get(target);
  const memoryGb = Number(fn?.Properties.MemorySize ?? 128) / 1024;
  const runs = MINUTES_A_MONTH / minutes;
  const cost = runs * (PRICE.lambdaRequest + memoryGb * IDLE_RUN_SECONDS * PRICE.lambdaGbSecond);
  const name = String(fn?.Properties.Description ?? target).replace(/^Gatehouse worker ([^:]+):.*$/, '$1');
  lines.push([`${name}: ${schedule}, ${Math.round(runs).toLocaleString('en')} runs of ${memoryGb * 1024} MB`, cost]);
}

const total = lines.reduce((n, [, cost]) => n + cost, 0);
for (const [what, cost] of lines) console.log(`$${cost.toFixed(2).padStart(6)}  ${what}`);
console.log(`$${total.toFixed(2).padStart(6)}  a month, idle (us-east-1 list prices, before free tiers)`);
console.log(`
Assumed: a scheduled run with nothing to do takes ${IDLE_RUN_SECONDS * 1000} ms. Not counted, being billed by use
and zero or within free tiers when idle: API Gateway and Lambda requests, DynamoDB on-demand
(and its storage, point-in-time recovery and stream), S3, SQS (the Lambda pollers' requests on
idle queues), the EventBridge archive, CloudWatch Logs, Cognito (Essentials: free up to 10,000
monthly active users), Athena, and connector schedules, which tenants create.`);
