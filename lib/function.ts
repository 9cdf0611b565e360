/**
 * Every Lambda of the service is a GatehouseFunction: the runtime, architecture, source-map,
 * logging and tracing settings are pinned here once instead of per route. Its code comes built
 * (lib/function-bundles.ts: every function of the stack in one esbuild run).
 *
 * Logging: Lambda's JSON log format, with the variables Powertools for AWS Lambda reads
 * (docs/observability.md). Tracing: X-Ray active on every function, with Powertools Tracer's
 * subsegments inside (shared/tracing.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The repository root: handler paths in the route table are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface GatehouseFunctionProps {
  /** Its package: `index.mjs` exporting `handler`, from FunctionBundles.code. */
  readonly code: lambda.Code;
  /** Names the function in error messages and the console, e.g. the route id. */
  readonly description: string;
  /** Its own role: the function adds no managed policy to it. */
  readonly role: iam.IRole;
  readonly logGroup: logs.ILogGroup;
  readonly environment: Record<string, string>;
  readonly timeout: Duration;
  readonly memorySize: number;
  readonly logging: FunctionLogging;
  /** A fixed name, where something must name the function without referring to it (lib/connector-schedules.ts). */
  readonly functionName?: string;
}

/** How every function logs (the stage's settings: lib/settings.ts). */
export interface FunctionLogging {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  /** The share of invocations Powertools logs at debug (0 to 1). */
  readonly sampleRate: number;
}

/** The service name and metrics namespace Powertools stamps on every log line and metric. */
export const POWERTOOLS_SERVICE_NAME = 'gatehouse';
export const METRICS_NAMESPACE = 'Gatehouse';

/**
 * The variables Powertools reads, the same for every function of a stage. The Tracer
 * (shared/tracing.ts) is on in Lambda by itself; it records no answer (a tenant's data) and no
 * outbound HTTP call (a URL can carry a credential): docs/observability.md#traces.
 */
export function powertoolsEnvironment(logging: FunctionLogging): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME,
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    POWERTOOLS_LOG_LEVEL: logging.level.toUpperCase(),
    POWERTOOLS_LOGGER_SAMPLE_RATE: String(logging.sampleRate),
    POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
    POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
  };
}

const APPLICATION_LOG_LEVEL = {
  debug: lambda.ApplicationLogLevel.DEBUG,
  info: lambda.ApplicationLogLevel.INFO,
  warn: lambda.ApplicationLogLevel.WARN,
  error: lambda.ApplicationLogLevel.ERROR,
} as const;

export class GatehouseFunction extends lambda.Function {
  constructor(scope: Construct, id: string, props: GatehouseFunctionProps) {
    super(scope, id, {
      code: props.code,
      handler: 'index.handler',
      functionName: props.functionName,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      role: props.role,
      logGroup: props.logGroup,
      timeout: props.timeout,
      memorySize: props.memorySize,
      tracing: lambda.Tracing.ACTIVE,
      loggingFormat: lambda.LoggingFormat.JSON,
      // Lambda's own lines: REPORT (duration, memory, init: cold starts) and faults are kept.
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      // Lambda drops application lines below this level, and Powertools takes it over its own
      // (AWS_LAMBDA_LOG_LEVEL wins, and then debug sampling is ignored: Logger.awsLogLevelShortCircuit).
      // So where a share is sampled at debug, the level is left to Powertools (POWERTOOLS_LOG_LEVEL).
      ...(props.logging.sampleRate > 0 ? {} : { applicationLogLevelV2: APPLICATION_LOG_LEVEL[props.logging.level] }),
      environment: {
        ...props.environment,
        ...powertoolsEnvironment(props.logging),
        // The bundles carry source maps without sources: stack traces name the TypeScript lines.
        NODE_OPTIONS: '--enable-source-maps',
      },
    });
  }
}
