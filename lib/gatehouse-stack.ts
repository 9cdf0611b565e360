/**
 * The service: shared data, storage, identity and events, the REST API shell, one nested stack of
 * functions and methods per route tag, and a nested stack of workers (the functions that are not
 * routes). Everything is derived from the route table and the worker table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDef } from '../shared/routes/index.js';
import { DEPLOYED_WORKERS, type WorkerDef } from '../shared/workers.js';
import { Api } from './api.js';
import { connectorScheduleRefs } from './connector-schedules.js';
import { Data } from './data.js';
import { Events } from './events.js';
import { PROJECT_ROOT } from './function.js';
import { Identity } from './identity.js';
import { AlarmTopic } from './alarm-topic.js';
import { Observability } from './observability.js';
import { checkRoutes, groupRoutes, routesFingerprint } from './route-plan.js';
import { RoutesStack } from './routes-stack.js';
import { FunctionBundles } from './function-bundles.js';
import { functionSources } from './function-sources.js';
import { Queues } from './queues.js';
import { Secrets } from './secrets.js';
import { Storage } from './storage.js';
import { DataLake } from './data-lake.js';
import { TenantData } from './tenant-data.js';
import { WorkersStack } from './workers-stack.js';

export interface GatehouseStackProps extends StackProps {
  /** Stage name: API stage, bus name, GATEHOUSE_STAGE. */
  readonly stage: string;
  /** Table, user pool, buckets and access logs refuse deletion and outlive the stack. */
  readonly deletionProtection: boolean;
  /** The route table; the tests inject synthetic ones. Default: shared/routes. */
  readonly routes?: readonly RouteDef[];
  /** The worker table. Default: shared/workers. */
  readonly workers?: readonly WorkerDef[];
  /** X-Ray on the API stage. Default off. (Every function traces: lib/function.ts.) */
  readonly tracing?: boolean;
  /** LOG_LEVEL and POWERTOOLS_LOG_LEVEL of every function, and Lambda's application log level. Default `info`. */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** POWERTOOLS_LOGGER_SAMPLE_RATE: the share of invocations logged at debug. Default 0. */
  readonly logSampleRate?: number;
  /** Retention of function logs, in days (one CloudWatch Logs accepts). Default 30. */
  readonly logRetentionDays?: number;
  /** Cognito feature plan. Default `essentials`. */
  readonly userPoolFeaturePlan?: 'essentials' | 'plus';
  /** An SNS topic (yours, with its own encryption and subscriptions) the alarms notify instead of the stack's own. */
  readonly alarmTopicArn?: string;
  /** The default of the AlarmEmail parameter: an address subscribed to the alarm topic. Default none. */
  readonly alarmEmail?: string;
  /** BEDROCK_MODEL_ID of every function: the model or inference profile for extraction and summaries. */
  readonly bedrockModelId?: string;
  /** The sender of email (EMAIL_FROM), an identity verified in SES; none: no email integrations. */
  readonly emailFrom?: string;
}

export class GatehouseStack extends Stack {
  readonly api: Api;
  readonly routeStacks: RoutesStack[] = [];
  readonly workersStack: WorkersStack;
  readonly alarmTopic: AlarmTopic;
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: GatehouseStackProps) {
    super(scope, id, props);
    const routes = props.routes ?? ROUTES;
    checkRoutes(routes);
    const workers = props.workers ?? DEPLOYED_WORKERS;
    // Every function in one esbuild run, when CDK first asks for one's code (lib/function-bundles.ts).
    const bundles = new FunctionBundles(functionSources(routes, workers));
    const tracing = props.tracing ?? false;
    const logRetention = retentionOf(props.logRetentionDays ?? 30);
    const logging = { level: props.logLevel ?? 'info', sampleRate: props.logSampleRate ?? 0 };
    const retain = props.deletionProtection;

    const data = new Data(this, 'Data', { deletionProtection: props.deletionProtection });
    const storage = new Storage(this, 'Storage', { retain });
    const secrets = new Secrets(this, 'Secrets', { retain });
    const identity = new Identity(this, 'Identity', {
      deletionProtection: props.deletionProtection,
      featurePlan: props.userPoolFeaturePlan ?? 'essentials',
    });
    const events = new Events(this, 'Events', { stage: props.stage, archiveRetention: Duration.days(90) });
    const queues = new Queues(this, 'Queues', { bus: events.bus, retain });
    const lake = new DataLake(this, 'DataLake', { bucket: storage.bucket, stage: props.stage });
    const tenantData = new TenantData(this, 'TenantData', { table: data.table, bucket: storage.bucket });
    this.api = new Api(this, 'Api', {
      stage: props.stage,
      tracing,
      retainLogs: retain,
      paths: [...new Set(routes.map((r) => r.path))],
    });
    const restApi = this.api.restApi;

    const services = {
      tableName: data.table.tableName,
      tableArn: data.table.tableArn,
      bucketName: storage.bucket.bucketName,
      bucketArn: storage.bucket.bucketArn,
      eventBusName: events.bus.eventBusName,
      eventBusArn: events.bus.eventBusArn,
      userPoolId: identity.userPool.userPoolId,
      userPoolArn: identity.userPool.userPoolArn,
      userPoolClientId: identity.client.userPoolClientId,
      secretsKeyArn: secrets.key.keyArn,
      auditKeyArn: secrets.auditKey.keyArn,
      queues: queues.refs(),
      lakeQueryRoleArn: lake.queryRole.roleArn,
      tenantDataRoleArn: tenantData.role.roleArn,
      lakeWorkgroup: lake.workgroupName,
      lakeDatabasePrefix: lake.databasePrefix,
      restApiId: restApi.restApiId,
      rootResourceId: restApi.restApiRootResourceId,
      connectorSchedules: connectorScheduleRefs(this, props.stage),
    };
    const version = packageVersion();
    const deployment = restApi.latestDeployment;
    if (!deployment) throw new Error('the RestApi must deploy its stage');
    for (const group of groupRoutes(routes)) {
      const routeStack = new RoutesStack(this, group.stackId, {
        group,
        services,
        resourceFor: (path) => this.api.resourceFor(path),
        stage: props.stage,
        version,
        logging,
        bedrockModelId: props.bedrockModelId,
        emailFrom: props.emailFrom,
        logRetention,
        bundles,
      });
      // The stage must be deployed after every method exists...
      deployment.node.addDependency(routeStack);
      this.routeStacks.push(routeStack);
    }
    // ...and deployed again whenever a method changes, which CDK cannot see across stacks.
    deployment.addToLogicalId({ routes: routesFingerprint(routes) });

    this.alarmTopic = new AlarmTopic(this, 'Alarms', {
      stage: props.stage,
      topicArn: props.alarmTopicArn,
      email: props.alarmEmail,
    });
    const tableStreamArn = data.table.tableStreamArn;
    if (!tableStreamArn) throw new Error('the table must have a stream: the workers read it');
    this.workersStack = new WorkersStack(this, 'Workers', {
      workers,
      services: { ...services, tableStreamArn },
      // Acknowledgement links sent to people are absolute: the API stage's URL.
      publicApiUrl: restApi.url,
      stage: props.stage,
      version,
      logging,
      bedrockModelId: props.bedrockModelId,
      emailFrom: props.emailFrom,
      alarmTopicArn: this.alarmTopic.topic.topicArn,
      logRetention,
      retain,
      bundles,
    });

    this.observability = new Observability(this, 'Observability', {
      stage: props.stage,
      routes,
      restApiName: `gatehouse-${props.stage}`,
      accessLogs: this.api.accessLogs,
      table: data.table,
      queues: queues.byTarget,
      workers: this.workersStack.workers,
      topic: this.alarmTopic.topic,
    });

    new CfnOutput(this, 'ApiUrl', { value: restApi.url });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.client.userPoolClientId });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: storage.bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: events.bus.eventBusName });
  }
}

/** The RetentionDays member of a number of days; throws on one CloudWatch Logs does not accept. */
function retentionOf(days: number): logs.RetentionDays {
  const found = Object.values(logs.RetentionDays).find((v): v is logs.RetentionDays => Number(v) === days);
  if (found === undefined) throw new Error(`log retention ${days} days is not one CloudWatch Logs accepts`);
  return found;
}

/** The service version functions report (GATEHOUSE_VERSION), from package.json. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
