/**
 * What a Lambda behind an API Gateway REST proxy integration receives: the v1 proxy event built
 * from a `node:http` request, and a Lambda-like context.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { IncomingMessage } from 'node:http';
import type { RouteDef } from '../routes/types.js';
import { isBinaryContentType } from '../http/media-types.js';

export interface EventInput {
  /** Take the client address from X-Forwarded-For (tests that play many clients); never in AWS. */
  trustForwardedFor?: boolean;
  req: IncomingMessage;
  /** Path and query as received. */
  url: URL;
  body: Buffer;
  route: RouteDef;
  pathParameters: Record<string, string> | null;
  requestId: string;
  stage: string;
  receivedAt: Date;
}

export function buildProxyEvent(input: EventInput): APIGatewayProxyEvent {
  const { req, url, body, route } = input;
  // Built in Maps, then made objects with own properties only: a client's name such as
  // `__proto__` or `constructor` is a name like any other, never an object's machinery.
  const headerValues = new Map<string, string[]>();
  // rawHeaders keeps the client's spelling and every repeat, as API Gateway passes them; the
  // single-value map keeps the last value of a repeated header, as API Gateway does.
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? '';
    headerValues.set(name, [...(headerValues.get(name) ?? []), req.rawHeaders[i + 1] ?? '']);
  }
  const headers = singleValues(headerValues);
  const multiValueHeaders = Object.fromEntries(headerValues);

  const queryValues = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) queryValues.set(name, [...(queryValues.get(name) ?? []), value]);
  const query = singleValues(queryValues);
  const multiQuery = Object.fromEntries(queryValues);
  const hasQuery = queryValues.size > 0;

  const contentType = req.headers['content-type'];
  const binary = isBinaryContentType(contentType);
  const socketIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  // API Gateway sets sourceIp itself; only the test harness may stand in for many clients.
  const forwarded = input.trustForwardedFor
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')[0]
        ?.trim()
    : '';
  const sourceIp = forwarded || socketIp;

  return {
    resource: route.path,
    path: url.pathname,
    httpMethod: route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: input.pathParameters,
    stageVariables: null,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      domainName: req.headers.host ?? '127.0.0.1',
      extendedRequestId: input.requestId,
      httpMethod: route.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: req.headers['user-agent'] ?? null,
        userArn: null,
      },
      path: url.pathname,
      protocol: `HTTP/${req.httpVersion}`,
      requestId: input.requestId,
      requestTime: formatRequestTime(input.receivedAt),
      requestTimeEpoch: input.receivedAt.getTime(),
      resourceId: route.id,
      resourcePath: route.path,
      stage: input.stage,
    },
    body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: body.length > 0 && binary,
  };
}

/** A Lambda-like context: the function is named after the route, its timeout is the route's. */
export function buildContext(route: RouteDef, awsRequestId: string, region: string): Context {
  const deadline = Date.now() + (route.timeoutSeconds ?? 10) * 1000;
  const functionName = route.id;
  const unsupported = () => {
    throw new Error('callback-style completion (done/fail/succeed) is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(route.memoryMb ?? 512),
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    // Context still declares the callback-era members; a stand-in must provide them.
    /* eslint-disable @typescript-eslint/no-deprecated -- implementing, not calling */
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
    /* eslint-enable @typescript-eslint/no-deprecated */
  };
}

// API Gateway's format: 21/Nov/2026:13:45:00 +0000
function formatRequestTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

/** Each name's last value, as API Gateway's single-value maps keep it. */
function singleValues(values: Map<string, string[]>): Record<string, string> {
  return Object.fromEntries([...values].map(([name, all]) => [name, all.at(-1) ?? '']));
}
