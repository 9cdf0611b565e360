/**
 * The one place that reads the environment. Read and checked when the module loads, so a
 * function with a missing setting fails at cold start with a clear message, not mid-request.
 */
import { portOf, setPort } from './runtime-ports.js';

export interface Config {
  /** Deployment stage name; `local` under `npm start` and the tests. */
  stage: string;
  region: string;
  tableName: string;
  bucketName: string;
  eventBusName: string;
  /**
   * `aws`: PutEvents to `eventBusName`. `local`: the in-process bus of the local runtime
   * (shared/local/event-bus.ts), which `npm start` and the tests select with EVENT_BUS_MODE.
   */
  eventBusMode: 'aws' | 'local';
  userPoolId: string;
  userPoolClientId: string;
  /** Issuer of the JWTs the API accepts (the user pool). */
  jwtIssuer: string;
  /** Where the issuer publishes its signing keys. */
  jwksUri: string;
  /** Endpoints of local stand-ins; unset in AWS. */
  endpoints: { dynamodb?: string; s3?: string; cognito?: string; sts?: string };
  /**
   * The local runtime's stand-in for sending notifications to people (LOCAL_NOTIFICATIONS_FILE):
   * each message, with its acknowledgement link, as a JSON line. Unset in AWS (no sender yet).
   */
  localNotificationsFile?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  version: string;
  /**
   * How long `/health` waits for each dependency before it calls it not answering
   * (HEALTH_CHECK_SECONDS, default 2). The test run's stack sets more: its DynamoDB Local shares two
   * cores with the whole suite, and a DescribeTable took over 2 s there.
   */
  healthCheckSeconds: number;
  /** The live event stream (`GET /api/v1/events/stream`). */
  eventStream: {
    /** Longest silence before a keep-alive comment, in seconds (default 15). */
    keepAliveSeconds: number;
    /**
     * After this many seconds a stream ends cleanly and the client reconnects with Last-Event-ID
     * (default 840, 14 min): below the 15 min that Lambda and API Gateway allow a streamed response.
     */
    maxDurationSeconds: number;
  };
  /** Speech to text for voice reports (shared/adapters/speech). */
  speech: {
    /**
     * `local`: sox + pocketsphinx on this machine. `aws`: Amazon Transcribe. SPEECH_MODE; by
     * default `local` under the local stack (local stand-ins configured), `aws` otherwise.
     */
    mode: 'aws' | 'local';
    /** Transcribe's language (TRANSCRIBE_LANGUAGE, default en-US); the local models are en-US only. */
    languageCode: string;
  };
  /** Field extraction and summaries (shared/adapters/extraction). */
  /** The KMS key that seals kept secrets (SECRETS_KEY_ID); unset under `npm start`, whose local key stands in. */
  secretsKeyId?: string;
  /** The local stand-in's key file (LOCAL_SECRETS_KEY_FILE), under `npm start`. */
  localSecretsKeyFile?: string;
  /** The HMAC KMS key that seals audit entries (AUDIT_KEY_ID); unset under `npm start`, whose local key stands in. */
  auditKeyId?: string;
  /** The local stand-in's key file for audit seals (LOCAL_AUDIT_KEY_FILE), under `npm start`. */
  localAuditKeyFile?: string;
  /** The sender address of email (EMAIL_FROM), an identity verified in SES; unset: no email from AWS. */
  emailFrom?: string;
  /** The local runtime's SMTP server (LOCAL_SMTP_URL), under `npm start`. */
  localSmtpUrl?: string;
  /** Webhook receivers and integrations on loopback may be called (OUTBOUND_ALLOW_LOOPBACK=true); never in AWS. */
  outboundAllowLoopback: boolean;
  /**
   * Where people reach the API (PUBLIC_API_URL), without a trailing slash: acknowledgement links sent
   * to people are absolute, `<publicApiUrl>/api/v1/incidents/{id}/acknowledge?token=...`. In AWS the
   * stack sets the API stage's URL; the local runtime sets its server's URL once it listens
   * (`useLocalPublicApiUrl`), unless PUBLIC_API_URL names another (a tunnel, a proxy).
   */
  publicApiUrl?: string;
  ai: {
    /** `local`: offline rules. `aws`: Amazon Bedrock. AI_MODE; default as for `speech.mode`. */
    mode: 'aws' | 'local';
    /** Model or inference profile for the Converse API (BEDROCK_MODEL_ID). */
    bedrockModelId: string;
  };
  /** Connectors' schedules (docs/connectors.md): set by the stack in AWS, on the routes that keep them. */
  connectors: {
    scheduleGroup?: string;
    pollerArn?: string;
    schedulerRoleArn?: string;
    deadLetterArn?: string;
    /** The 2 GB poller of the feeds that need it (an RPKI export), and its dead letters. */
    largePollerArn?: string;
    largeDeadLetterArn?: string;
    /**
     * Under `npm start`: whether connectors poll on their timers (LOCAL_CONNECTORS=on). Off unless
     * set, since a machine without network would only record failures; a poll asked for through
     * `POST /api/v1/connectors/{id}/poll` runs either way.
     */
    localTimers: boolean;
  };
  /** The data lake (docs/data-lake.md). */
  /**
   * The role assumed, tagged with a tenant, for that tenant's data (TENANT_DATA_ROLE_ARN): route
   * and worker functions have it (shared/adapters/tenant-credentials.ts).
   */
  tenantDataRoleArn?: string;
  /**
   * A worker's session policy when it assumes that role (TENANT_SESSION_POLICY): its own table and
   * bucket actions (shared/iam.ts `tenantSessionPolicy`), set by the stack from the worker's grants,
   * which are not in its bundle (lib/worker-function.ts). A route's function takes its route's.
   */
  tenantSessionPolicy?: string;
  lake: {
    /** `local`: DuckDB over the tenant's files in the local S3. `aws`: Athena. LAKE_MODE; default as for `speech.mode`. */
    mode: 'aws' | 'local';
    /** Tenants' Glue databases are `<prefix>_<tenant id without dashes>` (LAKE_DATABASE_PREFIX, default gatehouse_lake). */
    databasePrefix: string;
    /** The Athena workgroup (LAKE_WORKGROUP): its settings enforce the result location and the bytes-scanned cutoff. */
    workgroup: string;
    /** The role the query route assumes with a session policy narrowed to the caller's tenant (LAKE_QUERY_ROLE_ARN). */
    queryRoleArn?: string;
  };
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Lambda's and API Gateway's limit for one streamed response, in seconds. */
const STREAM_LIMIT_SECONDS = 900;

/**
 * A cross-region (global) inference profile: on-demand Claude 4.x models are invocable only through
 * one, and `global.` works from every commercial region. Haiku: extraction needs speed, not depth.
 */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

/** `aws` or `local` from `name`; unset means `fallback`. */
function mode(env: Env, name: string, fallback: 'aws' | 'local'): 'aws' | 'local' {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'aws' && raw !== 'local') throw new Error(`${name} must be aws or local`);
  return raw;
}

/** An optional number of seconds, above 0 and below `below`; fractions allowed (tests use short intervals). */
function seconds(env: Env, name: string, fallback: number, below: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value >= below) {
    throw new Error(`${name} must be a number of seconds above 0 and below ${below}`);
  }
  return value;
}

/** An http(s) URL without its trailing slash; unset stays unset. */
function publicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('PUBLIC_API_URL must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('PUBLIC_API_URL must be an http(s) URL');
  return url.href.replace(/\/+$/, '');
}

export function loadConfig(env: Env): Config {
  const missing: string[] = [];
  const required = (name: string): string => {
    const value = env[name];
    if (!value) missing.push(name);
    return value ?? '';
  };
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const tableName = required('TABLE_NAME');
  const bucketName = required('BUCKET_NAME');
  const eventBusName = required('EVENT_BUS_NAME');
  const userPoolId = required('USER_POOL_ID');
  const userPoolClientId = required('USER_POOL_CLIENT_ID');
  if (missing.length > 0) {
    throw new Error(`missing configuration: ${missing.join(', ')} must be set`);
  }
  const cognitoEndpoint = env.COGNITO_ENDPOINT;
  const jwtIssuer =
    env.JWT_ISSUER ??
    (cognitoEndpoint
      ? `${cognitoEndpoint.replace(/\/$/, '')}/${userPoolId}`
      : `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`);
  const eventBusMode = env.EVENT_BUS_MODE ?? 'aws';
  if (eventBusMode !== 'aws' && eventBusMode !== 'local') {
    throw new Error('EVENT_BUS_MODE must be aws or local');
  }
  // Powertools' own variable first, as its Logger reads them (shared/log.ts).
  const logLevel = (env.POWERTOOLS_LOG_LEVEL || env.LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`POWERTOOLS_LOG_LEVEL (or LOG_LEVEL) must be one of ${LOG_LEVELS.join(', ')}`);
  }
  // Under the local stack the stand-ins' endpoints are set: no Transcribe or Bedrock there.
  const offline = Boolean(env.S3_ENDPOINT || env.DYNAMODB_ENDPOINT) || eventBusMode === 'local';
  return {
    stage: env.GATEHOUSE_STAGE ?? 'local',
    region,
    tableName,
    bucketName,
    eventBusName,
    eventBusMode,
    userPoolId,
    userPoolClientId,
    jwtIssuer,
    jwksUri: env.JWKS_URI ?? `${jwtIssuer}/.well-known/jwks.json`,
    endpoints: {
      dynamodb: env.DYNAMODB_ENDPOINT || undefined,
      s3: env.S3_ENDPOINT || undefined,
      cognito: cognitoEndpoint || undefined,
      // The SDK's own variable: STS's endpoint, for the tenant wall's AssumeRole (shared/adapters/sts-assume-role.ts).
      sts: env.AWS_ENDPOINT_URL_STS || undefined,
    },
    localNotificationsFile: env.LOCAL_NOTIFICATIONS_FILE || undefined,
    secretsKeyId: env.SECRETS_KEY_ID || undefined,
    localSecretsKeyFile: env.LOCAL_SECRETS_KEY_FILE || undefined,
    auditKeyId: env.AUDIT_KEY_ID || undefined,
    localAuditKeyFile: env.LOCAL_AUDIT_KEY_FILE || undefined,
    outboundAllowLoopback: env.OUTBOUND_ALLOW_LOOPBACK === 'true',
    publicApiUrl: publicUrl(env.PUBLIC_API_URL) ?? portOf<string>('localPublicApiUrl'),
    emailFrom: env.EMAIL_FROM || undefined,
    localSmtpUrl: env.LOCAL_SMTP_URL || undefined,
    logLevel: logLevel as Config['logLevel'],
    version: env.GATEHOUSE_VERSION ?? '0.1.0',
    healthCheckSeconds: seconds(env, 'HEALTH_CHECK_SECONDS', 2, 29),
    eventStream: {
      keepAliveSeconds: seconds(env, 'EVENT_STREAM_KEEPALIVE_SECONDS', 15, STREAM_LIMIT_SECONDS),
      maxDurationSeconds: seconds(env, 'EVENT_STREAM_MAX_SECONDS', 14 * 60, STREAM_LIMIT_SECONDS),
    },
    speech: {
      mode: mode(env, 'SPEECH_MODE', offline ? 'local' : 'aws'),
      languageCode: env.TRANSCRIBE_LANGUAGE || 'en-US',
    },
    ai: {
      mode: mode(env, 'AI_MODE', offline ? 'local' : 'aws'),
      bedrockModelId: env.BEDROCK_MODEL_ID || DEFAULT_BEDROCK_MODEL_ID,
    },
    connectors: {
      scheduleGroup: env.CONNECTOR_SCHEDULE_GROUP || undefined,
      pollerArn: env.CONNECTOR_POLLER_ARN || undefined,
      schedulerRoleArn: env.CONNECTOR_SCHEDULER_ROLE_ARN || undefined,
      deadLetterArn: env.CONNECTOR_DEAD_LETTER_ARN || undefined,
      largePollerArn: env.CONNECTOR_LARGE_POLLER_ARN || undefined,
      largeDeadLetterArn: env.CONNECTOR_LARGE_DEAD_LETTER_ARN || undefined,
      localTimers: env.LOCAL_CONNECTORS === 'on',
    },
    tenantDataRoleArn: env.TENANT_DATA_ROLE_ARN || undefined,
    tenantSessionPolicy: env.TENANT_SESSION_POLICY || undefined,
    lake: {
      mode: mode(env, 'LAKE_MODE', offline ? 'local' : 'aws'),
      databasePrefix: env.LAKE_DATABASE_PREFIX || 'gatehouse_lake',
      workgroup: env.LAKE_WORKGROUP || 'gatehouse-lake',
      queryRoleArn: env.LAKE_QUERY_ROLE_ARN || undefined,
    },
  };
}

export const config: Config = loadConfig(process.env);

/**
 * The local runtime's server learns its port only when it listens (`PORT=0` picks a free one), after
 * this module was read: it names its URL here. PUBLIC_API_URL, when set, still wins.
 */
export function useLocalPublicApiUrl(url: string): void {
  // On the runtime's ports too: a bundle the local server loads later reads its own copy of this module.
  setPort('localPublicApiUrl', publicUrl(url));
  config.publicApiUrl ??= publicUrl(url);
}
