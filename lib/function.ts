/**
 * Every Lambda of the service is a GatehouseFunction: the runtime, architecture, bundling and
 * source-map settings are pinned here once instead of per route.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The repository root: handler paths in the route table are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

// ESM output has no `require`, `__filename` or `__dirname`; bundled CommonJS dependencies that use
// them (`require` of Node built-ins; ggencoder compares `__filename` with argv to run its self-test)
// get them here. Without `__filename` the AIS decoder's module threw at import: the ingest
// functions failed to load at all (test/infra/bundle-budget.test.ts now imports every bundle).
const ESM_REQUIRE_SHIM =
  "import { createRequire } from 'module'; import { fileURLToPath as __ghFileUrlToPath } from 'url'; const require = createRequire(import.meta.url); const __filename = __ghFileUrlToPath(import.meta.url); const __dirname = __ghFileUrlToPath(new URL('.', import.meta.url));";

export interface GatehouseFunctionProps {
  /** Handler file relative to the repository root, exporting `handler`. */
  readonly handlerFile: string;
  /** Names the function in error messages and the console, e.g. the route id. */
  readonly description: string;
  /** Its own role: the function adds no managed policy to it. */
  readonly role: iam.IRole;
  readonly logGroup: logs.ILogGroup;
  readonly environment: Record<string, string>;
  readonly timeout: Duration;
  readonly memorySize: number;
  readonly tracing: boolean;
  /** Files under node_modules copied next to the bundle (`swagger-ui-dist/swagger-ui.css`). */
  readonly packageFiles?: readonly string[];
  /** Modules esbuild runs before the handler module (a route's compiled validators). */
  readonly inject?: readonly string[];
  /** A fixed name, where something must name the function without referring to it (lib/connector-schedules.ts). */
  readonly functionName?: string;
}

export class GatehouseFunction extends nodejs.NodejsFunction {
  constructor(scope: Construct, id: string, props: GatehouseFunctionProps) {
    const entry = join(PROJECT_ROOT, props.handlerFile);
    if (!existsSync(entry)) {
      throw new Error(`${props.description}: handler file ${props.handlerFile} does not exist (looked for ${entry})`);
    }
    for (const file of props.packageFiles ?? []) {
      if (!existsSync(join(PROJECT_ROOT, 'node_modules', file))) {
        throw new Error(`${props.description}: node_modules/${file} is missing; run npm install`);
      }
    }
    super(scope, id, {
      entry,
      handler: 'handler',
      functionName: props.functionName,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      role: props.role,
      logGroup: props.logGroup,
      timeout: props.timeout,
      memorySize: props.memorySize,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: nodejs.OutputFormat.ESM,
        // Prefer packages' ES module builds: smaller, and tree-shaken.
        mainFields: ['module', 'main'],
        minify: true,
        // esbuild's own report (each bundle's files and sizes) only when something is wrong:
        // bin/bench-cold-start.ts measures the sizes.
        logLevel: nodejs.LogLevel.WARNING,
        // Minifying renames classes; error mapping and logs rely on `err.name`/class names.
        keepNames: true,
        sourceMap: true,
        // Stack traces need the mappings only; leaving sources out halves the .map file.
        sourcesContent: false,
        banner: ESM_REQUIRE_SHIM,
        // The AWS SDK v3 is bundled, not taken from the runtime: package-lock.json pins the
        // versions the tests ran against, while the runtime's copy changes without notice.
        // The cost is a larger package (tree-shaken ESM keeps it to a few hundred KB).
        bundleAwsSDK: true,
        commandHooks: packageFilesHooks(props.packageFiles ?? []),
        inject: props.inject ? [...props.inject] : undefined,
      },
    });
  }
}

/** Copies the given node_modules files into the bundle's output directory after esbuild. */
function packageFilesHooks(files: readonly string[]): nodejs.ICommandHooks | undefined {
  if (files.length === 0) return undefined;
  const quote = (path: string) => `'${path.replace(/'/g, `'\\''`)}'`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map((file) => `cp ${quote(join(inputDir, 'node_modules', file))} ${quote(outputDir)}/`),
  };
}
