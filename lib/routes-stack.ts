/**
 * A nested stack with the functions and methods of one group of routes (one tag). The API, its
 * resources and the shared services stay in the parent; this stack imports them, so the parent
 * does not grow by ~6 resources per route and no stack nears CloudFormation's 500.
 */
import { CfnParameter, Duration, NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RouteDef } from '../shared/routes/index.js';
import { AUTH_IN_FUNCTION, acknowledgeOpenMethod, addMethodNotAllowed } from './api.js';
import { MCP_METHODS_NOT_ALLOWED, mcpRoute } from '../shared/routes/mcp.js';
import { importConnectorSchedules, type ConnectorScheduleRefs } from './connector-schedules.js';
import { importQueues, onTenantData, usesAuditKey } from './grants.js';
import type { FunctionBundles } from './function-bundles.js';
import type { FunctionLogging } from './function.js';
import { RouteFunction } from './route-function.js';
import { STREAMING_TIMEOUT_SECONDS, type RouteGroup } from './route-plan.js';

/** The shared services, as the parent stack sees them (tokens there). */
export interface ServiceRefs {
  tableName: string;
  tableArn: string;
  bucketName: string;
  bucketArn: string;
  eventBusName: string;
  eventBusArn: string;
  userPoolId: string;
  userPoolArn: string;
  userPoolClientId: string;
  /** The key that seals kept secrets (lib/secrets.ts). */
  secretsKeyArn: string;
  /** The HMAC key that seals audit entries (lib/secrets.ts). */
  auditKeyArn: string;
  /** The service's queues and dead-letter queues (lib/queues.ts), by target. */
  queues: Record<string, { arn: string; url: string }>;
  /** The data lake (lib/data-lake.ts): the role queries assume, the Athena workgroup, the tenants' Glue database prefix. */
  lakeQueryRoleArn: string;
  lakeWorkgroup: string;
  lakeDatabasePrefix: string;
  /** The role a route's calls on one tenant's data run as (lib/tenant-data.ts). */
  tenantDataRoleArn: string;
  restApiId: string;
  rootResourceId: string;
  /** Connectors' schedules (lib/connector-schedules.ts). */
  connectorSchedules: ConnectorScheduleRefs;
}

export interface RoutesStackProps {
  readonly group: RouteGroup;
  readonly services: ServiceRefs;
  /** The parent's API resource of a route path. */
  readonly resourceFor: (path: string) => apigw.IResource;
  readonly stage: string;
  readonly version: string;
  readonly bedrockModelId?: string;
  readonly emailFrom?: string;
  readonly logging: FunctionLogging;
  readonly logRetention: logs.RetentionDays;
  /** The stack's functions, built together. */
  readonly bundles: FunctionBundles;
}

export class RoutesStack extends NestedStack {
  private readonly imported = new Map<string, apigw.IResource>();

  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, { description: `Gatehouse routes tagged ${props.group.tag}` });
    // Explicit, named parameters rather than CDK's generated `referenceto...` ones: the names
    // are the stack's readable interface, and cdk-nag findings on them stay stable
    // (`Resource::<BucketArn>/*`).
    const s = props.services;
    const param = (name: string, value: string) => {
      this.setParameter(name, value);
      return new CfnParameter(this, name, { type: 'String' }).valueAsString;
    };
    const tableName = param('TableName', s.tableName);
    const bucketName = param('BucketName', s.bucketName);
    const eventBusName = param('EventBusName', s.eventBusName);
    const userPoolId = param('UserPoolId', s.userPoolId);
    const userPoolClientId = param('UserPoolClientId', s.userPoolClientId);
    const arns = {
      tableArn: param('TableArn', s.tableArn),
      bucketArn: param('BucketArn', s.bucketArn),
      eventBusArn: param('EventBusArn', s.eventBusArn),
      userPoolArn: param('UserPoolArn', s.userPoolArn),
      // Only a group with a route that seals or opens secrets takes the key.
      secretsKeyArn: props.group.routes.some((r) => r.grants.secrets) ? param('SecretsKeyArn', s.secretsKeyArn) : '',
      // Only a group with a route that seals audit entries or checks seals; only those routes get AUDIT_KEY_ID (route-function.ts).
      auditKeyArn: props.group.routes.some((r) => usesAuditKey(r.grants)) ? param('AuditKeyArn', s.auditKeyArn) : '',
      emailFrom: props.emailFrom,
      // Only a group with a route that keeps connectors' schedules takes their group and role.
      ...(props.group.routes.some((r) => r.grants.schedules)
        ? { connectorSchedules: importConnectorSchedules(s.connectorSchedules, param) }
        : {}),
      lakeQueryRoleArn: props.group.routes.some((r) => r.grants.lake === 'query')
        ? param('LakeQueryRoleArn', s.lakeQueryRoleArn)
        : '',
      lakeDatabasePrefix: s.lakeDatabasePrefix,
      // Every group has routes on tenant data (a table or bucket grant): they assume it.
      tenantDataRoleArn: props.group.routes.some(onTenantData) ? param('TenantDataRoleArn', s.tenantDataRoleArn) : '',
    };
    // Only the queues the group's grants send to.
    const queues = importQueues(
      props.group.routes.map((r) => r.grants),
      s.queues,
      param,
    );
    const api = apigw.RestApi.fromRestApiAttributes(this, 'RestApi', {
      restApiId: param('RestApiId', s.restApiId),
      rootResourceId: param('RootResourceId', s.rootResourceId),
    });

    // The names shared/config.ts reads.
    const environment = {
      TABLE_NAME: tableName,
      BUCKET_NAME: bucketName,
      EVENT_BUS_NAME: eventBusName,
      USER_POOL_ID: userPoolId,
      USER_POOL_CLIENT_ID: userPoolClientId,
      GATEHOUSE_STAGE: props.stage,
      GATEHOUSE_VERSION: props.version,
      LOG_LEVEL: props.logging.level,
      ...(props.bedrockModelId ? { BEDROCK_MODEL_ID: props.bedrockModelId } : {}),
      ...(arns.secretsKeyArn ? { SECRETS_KEY_ID: arns.secretsKeyArn } : {}),
      ...(props.emailFrom && props.group.routes.some((r) => r.grants.email) ? { EMAIL_FROM: props.emailFrom } : {}),
      ...queues.environment,
      ...(arns.connectorSchedules ? arns.connectorSchedules.environment : {}),
      ...(arns.tenantDataRoleArn ? { TENANT_DATA_ROLE_ARN: arns.tenantDataRoleArn } : {}),
      ...(arns.lakeQueryRoleArn ? { LAKE_QUERY_ROLE_ARN: arns.lakeQueryRoleArn, LAKE_WORKGROUP: s.lakeWorkgroup } : {}),
      // A lake query names the tenant's database; a connector poll creates it (its catalog grant).
      ...(props.group.routes.some((r) => r.grants.lake) ? { LAKE_DATABASE_PREFIX: s.lakeDatabasePrefix } : {}),
    };

    for (const route of props.group.routes) {
      const { function: fn } = new RouteFunction(this, route.id, {
        route,
        arns: { ...arns, queueArns: queues.queueArns },
        environment,
        logging: props.logging,
        logRetention: props.logRetention,
        bundles: props.bundles,
      });
      const resource = this.importResource(api, route.path, props.resourceFor(route.path));
      const method = resource.addMethod(route.method, integrationFor(route, fn), {
        authorizationType: apigw.AuthorizationType.NONE,
        operationName: route.id,
      });
      acknowledgeOpenMethod(method, AUTH_IN_FUNCTION);
      if (route.id === mcpRoute.id)
        for (const verb of MCP_METHODS_NOT_ALLOWED) addMethodNotAllowed(resource, verb, route.method);
    }
  }

  /** The parent's resource, imported once per path (its id becomes a stack parameter). */
  private importResource(api: apigw.IRestApi, path: string, parent: apigw.IResource): apigw.IResource {
    let resource = this.imported.get(path);
    if (!resource) {
      resource = apigw.Resource.fromResourceAttributes(this, `Resource ${path.replace(/\//g, ' ')}`, {
        restApi: api,
        resourceId: parent.resourceId,
        path,
      });
      this.imported.set(path, resource);
    }
    return resource;
  }
}

function integrationFor(route: RouteDef, fn: RouteFunction['function']): apigw.LambdaIntegration {
  return new apigw.LambdaIntegration(fn, {
    // One invoke permission per method instead of two: the console's test-invoke is not used.
    allowTestInvoke: false,
    // A streamed response (server-sent events) may run up to 15 minutes; buffered ones keep the
    // default 29 s cap.
    ...(route.streaming
      ? {
          responseTransferMode: apigw.ResponseTransferMode.STREAM,
          timeout: Duration.seconds(STREAMING_TIMEOUT_SECONDS),
        }
      : {}),
  });
}
