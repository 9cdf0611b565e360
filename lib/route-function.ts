/**
 * The Lambda of one route with its own role and log group, granted exactly the route's
 * `grants` and nothing else.
 */
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDef } from '../shared/routes/index.js';
import { GatehouseFunction, PROJECT_ROOT } from './function.js';
import { writeValidatorModules } from './validators.js';
import { counterActions } from '../shared/iam.js';
import { acknowledgeGrantWildcards, grantStatements, type ServiceArns } from './grants.js';
import { DEFAULT_MEMORY_MB, timeoutOf } from './route-plan.js';
import { IP_GEO_PACKAGE_FILES } from './ip-geo-files.js';

/**
 * What a route's package needs beyond its bundle. The documentation page serves Swagger UI's
 * script and style from the package itself (no CDN), and the threat score reads the IP databases,
 * so they are copied next to index.mjs.
 */
const PACKAGE_FILES: Record<string, { files: string[]; environment: Record<string, string> }> = {
  'docs.asset': {
    files: ['swagger-ui-dist/swagger-ui.css', 'swagger-ui-dist/swagger-ui-bundle.js'],
    environment: { DOCS_ASSETS_DIR: '/var/task' },
  },
  // The threat score's geography: the offline IP databases (docs/ip-geography.md).
  'threatScore.get': IP_GEO_PACKAGE_FILES,
  'developer.threatScore': IP_GEO_PACKAGE_FILES,
  // The geopolitical overlay locates the watched IP addresses.
  'geopoliticalRisk.get': IP_GEO_PACKAGE_FILES,
};

/** Where the build writes generated validator modules (git-ignored). */
const VALIDATORS_DIR = join(PROJECT_ROOT, '.build', 'validators');

export interface RouteFunctionProps {
  readonly route: RouteDef;
  readonly arns: ServiceArns;
  /** Settings every function reads through shared/config.ts. */
  readonly environment: Record<string, string>;
  readonly tracing: boolean;
  readonly logRetention: logs.RetentionDays;
}

export class RouteFunction extends Construct {
  readonly function: GatehouseFunction;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    const extra = PACKAGE_FILES[route.id];

    // An own role instead of the default one: the default carries the managed
    // AWSLambdaBasicExecutionRole, which may write to any log group of the account.
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Gatehouse route ${route.id}`,
    });
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Function logs are diagnostics; the audit trail lives in the table.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    logGroup.grantWrite(role);
    for (const statement of grantStatements(route.grants, props.arns, counterActions(route)))
      role.addToPrincipalPolicy(statement);

    this.function = new GatehouseFunction(this, 'Function', {
      handlerFile: route.handler,
      description: `Gatehouse route ${route.id}: ${route.method} ${route.path}`,
      role,
      logGroup,
      environment: { ...props.environment, ...extra?.environment },
      timeout: Duration.seconds(timeoutOf(route)),
      memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
      tracing: props.tracing,
      packageFiles: extra?.files ?? [],
      // The route's request validators, compiled now into standalone code (only when this synth
      // bundles: a template-only synth has no bundle to put them in).
      inject: Stack.of(this).bundlingRequired
        ? [writeValidatorModules(route, VALIDATORS_DIR, join(PROJECT_ROOT, 'shared/http/compiled-validators.ts'))]
        : undefined,
    });

    acknowledgeGrantWildcards(this, route.grants, props.arns.lakeDatabasePrefix);
    if (props.tracing) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
      });
    }
  }
}
