/**
 * A public route whose caller is proven by a signature over the raw body (a dock's callback,
 * docs/drones.md): the check runs in the chain's authorization step, before the body is parsed
 * (parsing loses the exact bytes signed), so an unsigned request is 401 before anything else is
 * looked at. What the check established reaches the route's function through `verifiedOf`.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

export type SignatureCheck<T> = (input: {
  params: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  rawBody: string;
}) => Promise<T>;

export function signedBody<T>(check: SignatureCheck<T>) {
  const verified = new WeakMap<APIGatewayProxyEvent, T>();
  const authorizer = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
    before: async (request) => {
      const { body, isBase64Encoded, headers, pathParameters } = request.event;
      const rawBody =
        typeof body === 'string' ? (isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body) : '';
      verified.set(request.event, await check({ params: pathParameters ?? {}, headers: headers ?? {}, rawBody }));
    },
  });
  const verifiedOf = (event: APIGatewayProxyEvent): T => {
    const v = verified.get(event);
    if (v === undefined) throw new Error('the signature step did not run for this request');
    return v;
  };
  return { authorizer, verifiedOf };
}
