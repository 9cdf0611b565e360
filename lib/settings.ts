/**
 * Deployment settings from CDK context (`cdk.json` or `-c name=value`). Values given with `-c`
 * arrive as strings, so booleans are parsed here, and a bad value fails synth with its name.
 */
import type { Node } from 'constructs';
import type { GatehouseStackProps } from './gatehouse-stack.js';

export type Settings = Pick<
  GatehouseStackProps,
  | 'stage'
  | 'deletionProtection'
  | 'tracing'
  | 'logLevel'
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
  const logLevel = String(node.tryGetContext('logLevel') ?? 'info');
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
  return {
    stage,
    deletionProtection: flag(node, 'deletionProtection', true),
    tracing: flag(node, 'tracing', false),
    logLevel: logLevel as Settings['logLevel'],
    userPoolFeaturePlan: plan,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(bedrockModelId ? { bedrockModelId } : {}),
    ...(emailFrom ? { emailFrom } : {}),
  };
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
