/**
 * The REST API shell: the API itself, its resource tree (every path part of every route), the
 * stage with access logs and throttling, and the error bodies API Gateway answers by itself.
 * The methods are added by the route stacks (lib/routes-stack.ts) against these resources.
 *
 * REST rather than HTTP API: only REST APIs stream responses (the event stream).
 */
import { RemovalPolicy, Size, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BINARY_MEDIA_TYPES, MIN_COMPRESSION_BYTES } from '../shared/http/media-types.js';

export interface ApiProps {
  readonly stage: string;
  readonly tracing: boolean;
  readonly retainLogs: boolean;
  /** Every route path; a resource is made for each path part. */
  readonly paths: readonly string[];
}

/** Steady-state requests per second and burst for the whole stage. */
const THROTTLE = { rateLimit: 100, burstLimit: 200 };

// Uploads (multipart infrastructure files, voice recordings) reach the function base64-encoded
// and intact only when their content type is listed here.

const NOT_FOUND_BODY = '{"detail":"Not Found"}';

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  /** The stage's access log: one JSON line a request; the route groups' metrics are filtered from it (lib/stage-metrics.ts). */
  readonly accessLogs: logs.LogGroup;
  private readonly resources = new Map<string, apigw.IResource>();

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const accessLogs = (this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      // Who called what, from where: kept a year, like the bucket's access logs.
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    }));

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: `gatehouse-${props.stage}`,
      description: `Gatehouse API (${props.stage})`,
      // Regional: a streamed response may idle 5 minutes there, 30 s on edge-optimized.
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // gzip for clients that accept it (the local server does the same: shared/local/http-server.ts).
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
      // Access and execution logs need the account-level CloudWatch role. It is shared by every
      // REST API of the account and region, so it outlives this stack.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
        // Errors only, and never request or response bodies: they carry personal data.
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        // No per-method ("detailed") metrics: 5 custom metrics for each of ~160 methods would cost
        // about $240 a month a stage. The stage's own metrics (count, 4xx, 5xx, latency) come free,
        // and the route groups' are filtered from the access log (lib/stage-metrics.ts).
        metricsEnabled: false,
        tracingEnabled: props.tracing,
        throttlingRateLimit: THROTTLE.rateLimit,
        throttlingBurstLimit: THROTTLE.burstLimit,
      },
    });
    this.addErrorResponses();
    this.addRootMethod();
    for (const path of props.paths) this.resourceFor(path);
    this.acknowledgeFindings();
  }

  /** The resource of a route path, made on first use (`/` is the root). */
  resourceFor(path: string): apigw.IResource {
    let resource = this.resources.get(path);
    if (!resource) {
      resource = path === '/' ? this.restApi.root : this.restApi.root.resourceForPath(path);
      this.resources.set(path, resource);
    }
    return resource;
  }

  /** API Gateway's own answers in the contract's `{"detail": ...}` shape. */
  private addErrorResponses(): void {
    const json = (body: string) => ({ 'application/json': body });
    // No route matches (or the method is not there): API Gateway calls this "missing
    // authentication token" and answers 403; the contract wants an unknown path to be 404.
    this.restApi.addGatewayResponse('NotFound', {
      type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      templates: json(NOT_FOUND_BODY),
    });
    this.restApi.addGatewayResponse('Throttled', {
      type: apigw.ResponseType.THROTTLED,
      statusCode: '429',
      responseHeaders: { 'Retry-After': "'1'" },
      templates: json('{"detail":"Too Many Requests"}'),
    });
    this.restApi.addGatewayResponse('Default4xx', {
      type: apigw.ResponseType.DEFAULT_4XX,
      templates: json('{"detail":$context.error.messageString}'),
    });
    // The contract wants a 5xx body to name the request id. Header mappings of gateway responses
    // cannot read $context, so no X-Request-Id here; API Gateway sends x-amzn-RequestId anyway.
    this.restApi.addGatewayResponse('Default5xx', {
      type: apigw.ResponseType.DEFAULT_5XX,
      templates: json('{"detail":"$context.error.message (request id $context.requestId)"}'),
    });
  }

  /**
   * `ANY /` answers 404 like any unknown path. It also gives the API a method of its own: all
   * route methods live in nested stacks, and CDK refuses a RestApi without methods.
   */
  private addRootMethod(): void {
    const method = this.restApi.root.addMethod(
      'ANY',
      new apigw.MockIntegration({
        // WHEN_NO_MATCH: any content type reaches the mock, so the answer is 404, never 415.
        passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
        requestTemplates: { 'application/json': '{"statusCode": 404}' },
        integrationResponses: [{ statusCode: '404', responseTemplates: { 'application/json': NOT_FOUND_BODY } }],
      }),
      { methodResponses: [{ statusCode: '404' }], authorizationType: apigw.AuthorizationType.NONE },
    );
    acknowledgeOpenMethod(method, 'It only answers 404 Not Found; there is nothing behind it.');
  }

  private acknowledgeFindings(): void {
    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "Requests are validated in the function against the route table's JSON Schemas, so failures " +
          "get the contract's 422 body with a `loc` per problem; API Gateway's validator answers 400 " +
          'with its own body.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The account's API Gateway logging role: this AWS managed policy is the documented one for it and " +
          'only allows writing to CloudWatch Logs.',
      },
    );
    Validations.of(this.restApi.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL yet: stage throttling bounds the load and every non-public route needs a credential. ' +
        'A web ACL with a rate-based rule is due when the public incident route (10 requests/minute/IP) lands.',
    });
  }
}

/** Why route methods have no API Gateway authorizer (cdk-nag APIG4, COG4). */
export const AUTH_IN_FUNCTION =
  'Authentication happens in the function (Bearer JWT verified against the user pool with ' +
  'aws-jwt-verify, or an X-API-Key looked up by hash), with the least role per route from the route ' +
  'table: the contract mixes public routes, per-tenant API keys and token-query links, which no single ' +
  'API Gateway authorizer covers.';

/**
 * A method that answers 405 with `Allow`, without a function (a mock integration): the stateless
 * MCP endpoint opens no server stream (GET) and has no session to end (DELETE), and MCP clients
 * read a 405 as just that, where API Gateway alone would answer an unrouted method 404.
 */
export function addMethodNotAllowed(resource: apigw.IResource, verb: string, allow: string): void {
  const method = resource.addMethod(
    verb,
    new apigw.MockIntegration({
      passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
      requestTemplates: { 'application/json': '{"statusCode": 405}' },
      integrationResponses: [
        {
          statusCode: '405',
          responseTemplates: { 'application/json': '{"detail":"Method Not Allowed"}' },
          responseParameters: { 'method.response.header.Allow': `'${allow}'` },
        },
      ],
    }),
    {
      methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true } }],
      authorizationType: apigw.AuthorizationType.NONE,
    },
  );
  acknowledgeOpenMethod(method, 'It only answers 405 Method Not Allowed; there is nothing behind it.');
}

/** Acknowledges that a method has no API Gateway authorizer, saying why. */
export function acknowledgeOpenMethod(method: apigw.Method, reason: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
}

/** Fields written as JSON numbers, not strings, so metric filters can compare and sum them. */
const NUMERIC_FIELDS = ['$context.status', '$context.responseLatency'];

function accessLogFormat(): apigw.AccessLogFormat {
  const f = apigw.AccessLogField;
  let format = JSON.stringify({
    requestId: f.contextRequestId(),
    stage: f.contextStage(),
    extendedRequestId: f.contextExtendedRequestId(),
    requestTime: f.contextRequestTime(),
    ip: f.contextIdentitySourceIp(),
    userAgent: f.contextIdentityUserAgent(),
    httpMethod: f.contextHttpMethod(),
    resourcePath: f.contextResourcePath(),
    path: f.contextPath(),
    protocol: f.contextProtocol(),
    status: f.contextStatus(),
    responseLength: f.contextResponseLength(),
    responseLatency: f.contextResponseLatency(),
    integrationLatency: f.contextIntegrationLatency(),
    integrationStatus: f.contextIntegrationStatus(),
    errorMessage: f.contextErrorMessage(),
    errorType: f.contextErrorResponseType(),
  });
  for (const field of NUMERIC_FIELDS) format = format.replace(`"${field}"`, field);
  return apigw.AccessLogFormat.custom(format);
}
