/**
 * Deployment settings from CDK context (`cdk.json` or `-c name=value`). Values given with `-c`
 * arrive as strings, so booleans are parsed here, and a bad value fails synth with its name.
 * Log level, debug sampling and log retention default by stage (`stageLogging`).
 */
import type { Node } from 'constructs';
import type { GatehouseStackProps } from './gatehouse-stack.js';

export type Settings = Pick<
  GatehouseStackProps,
  | 'stage'
  | 'deletionProtection'
  | 'tracing'
  | 'logLevel'
  | 'logSampleRate'
  | 'logRetentionDays'
  | 'alarmEmail'
  | 'userPoolFeaturePlan'
  | 'alarmTopicArn'
  | 'bedrockModelId'
  | 'emailFrom'
>;

export function settingsFromContext(node: Node): Settings {
  const stage = String(node.tryGetContext('stage') ?? 'dev');
  // The stage names the API stage, the event bus and the stack: keep it short and plain.
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(`context stage "${stage}" must be lowercase letters, digits and dashes, at most 20`);
  }
  const byStage = stageLogging(stage);
  const logLevel = String(node.tryGetContext('logLevel') ?? byStage.logLevel);
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new Error(`context logLevel "${logLevel}" must be debug, info, warn or error`);
  }
  const plan = String(node.tryGetContext('userPoolFeaturePlan') ?? 'essentials');
  if (plan !== 'essentials' && plan !== 'plus') {
    throw new Error(`context userPoolFeaturePlan "${plan}" must be essentials or plus`);
  }
  const alarmTopicArn = optional(
    node,
    'alarmTopicArn',
    /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
    'an SNS topic ARN',
  );
  const bedrockModelId = optional(
    node,
    'bedrockModelId',
    /^[A-Za-z0-9][A-Za-z0-9.:/_-]{0,2047}$/,
    'a Bedrock model or inference profile id',
  );
  // An address (or domain identity's address) verified in SES; without it email integrations are refused.
  const emailFrom = optional(
    node,
    'emailFrom',
    /^[^\s@<>]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,}$/,
    'an email address verified in Amazon SES',
  );
  const logSampleRate = Number(node.tryGetContext('logSampleRate') ?? byStage.logSampleRate);
  if (!(logSampleRate >= 0 && logSampleRate <= 1)) {
    throw new Error(
      `context logSampleRate "${String(node.tryGetContext('logSampleRate'))}" must be a number from 0 to 1`,
    );
  }
  const logRetentionDays = Number(node.tryGetContext('logRetentionDays') ?? byStage.logRetentionDays);
  if (!(RETENTION_DAYS as readonly number[]).includes(logRetentionDays)) {
    throw new Error(
      `context logRetentionDays "${String(node.tryGetContext('logRetentionDays'))}" must be one of ${RETENTION_DAYS.join(', ')}`,
    );
  }
  const alarmEmail = optional(
    node,
    'alarmEmail',
    /^[^\s@<>]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,}$/,
    'an email address',
  );
  return {
    stage,
    deletionProtection: flag(node, 'deletionProtection', true),
    tracing: flag(node, 'tracing', false),
    logLevel: logLevel as Settings['logLevel'],
    logSampleRate,
    logRetentionDays,
    userPoolFeaturePlan: plan,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(bedrockModelId ? { bedrockModelId } : {}),
    ...(emailFrom ? { emailFrom } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
  };
}

/** The retentions CloudWatch Logs accepts, in days. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

/**
 * Logging defaults of a stage: `prod` logs at info with 1% of invocations sampled at debug and
 * keeps function logs 90 days; any other stage logs at debug and keeps them 14 days.
 */
export function stageLogging(stage: string): {
  logLevel: 'debug' | 'info';
  logSampleRate: number;
  logRetentionDays: number;
} {
  return stage === 'prod'
    ? { logLevel: 'info', logSampleRate: 0.01, logRetentionDays: 90 }
    : { logLevel: 'debug', logSampleRate: 0, logRetentionDays: 14 };
}

function optional(node: Node, name: string, form: RegExp, what: string): string | undefined {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !form.test(value))
    throw new Error(`context ${name} must be ${what}, not ${JSON.stringify(value)}`);
  return value;
}

function flag(node: Node, name: string, fallback: boolean): boolean {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`context ${name} must be true or false, not ${JSON.stringify(value)}`);
}
