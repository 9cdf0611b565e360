/**
 * The Lambda of one route with its own role and log group, granted exactly the route's
 * `grants` and nothing else.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDef } from '../shared/routes/index.js';
import { GatehouseFunction, type FunctionLogging } from './function.js';
import type { FunctionBundles } from './function-bundles.js';
import { routePackageExtras } from './function-sources.js';
import { counterActions, fencedToPlatform } from '../shared/iam.js';
import { acknowledgeGrantWildcards, grantStatements, onTenantData, usesAuditKey, type ServiceArns } from './grants.js';
import { ASSUME_TENANT_DATA } from './tenant-data.js';
import { DEFAULT_MEMORY_MB, timeoutOf } from './route-plan.js';

export interface RouteFunctionProps {
  readonly route: RouteDef;
  readonly arns: ServiceArns;
  /** Settings every function reads through shared/config.ts. */
  readonly environment: Record<string, string>;
  readonly logging: FunctionLogging;
  readonly logRetention: logs.RetentionDays;
  /** The stack's functions, built together (the route's code is `bundles.code(route.id)`). */
  readonly bundles: FunctionBundles;
}

export class RouteFunction extends Construct {
  readonly function: GatehouseFunction;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    const extra = routePackageExtras(route);

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
    const fenced = fencedToPlatform(route);
    for (const statement of grantStatements(route.grants, props.arns, counterActions(route), fenced))
      role.addToPrincipalPolicy(statement);
    if (onTenantData(route)) {
      if (!props.arns.tenantDataRoleArn)
        throw new Error(`route ${route.id} has table or bucket grants: it needs the TenantData role`);
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: [...ASSUME_TENANT_DATA], resources: [props.arns.tenantDataRoleArn] }),
      );
    }

    this.function = new GatehouseFunction(this, 'Function', {
      code: props.bundles.code(route.id),
      description: `Gatehouse route ${route.id}: ${route.method} ${route.path}`,
      role,
      logGroup,
      environment: {
        ...props.environment,
        ...(props.arns.auditKeyArn && usesAuditKey(route.grants) ? { AUDIT_KEY_ID: props.arns.auditKeyArn } : {}),
        ...extra?.environment,
      },
      timeout: Duration.seconds(timeoutOf(route)),
      memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
      logging: props.logging,
    });

    acknowledgeGrantWildcards(this, route.grants, props.arns.lakeDatabasePrefix, fenced);
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
    });
  }
}
