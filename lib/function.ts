/**
 * Every Lambda of the service is a GatehouseFunction: the runtime, architecture and source-map
 * settings are pinned here once instead of per route. Its code comes built (lib/function-bundles.ts:
 * every function of the stack in one esbuild run).
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
  readonly tracing: boolean;
  /** A fixed name, where something must name the function without referring to it (lib/connector-schedules.ts). */
  readonly functionName?: string;
}

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
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      // The bundles carry source maps without sources: stack traces name the TypeScript lines.
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
  }
}
