/**
 * The developer API's (`/v1`) step of the handler chain, instead of the chain's own `authorize`
 * (docs/developer-api.md): the credential is an API key (as `Authorization: Bearer ghk_...` or
 * `X-API-Key`) or a bearer token; the caller's tier must include the route's endpoint (403), and
 * each call counts against the tier's minute and month (429) instead of the tenant plan's rate,
 * so every answer carries the X-RateLimit headers (a 401 those of its address). A public route
 * that takes an optional credential (`POST /v1/auth/keys`) gets its caller, if one is sent.
 * Only the developer functions carry this module.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { authenticate } from '../auth/authenticate.js';
import { roleSatisfies } from '../auth/principal.js';
import { accessOf, assertTierIncludes, countDeveloperCall, minuteState } from '../domain/developer/index.js';
import { consumeRateLimit } from '../domain/requests/index.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { RouteDef } from '../routes/types.js';
import { internalOf } from './handler.js';

/** Unauthenticated calls an address may make a minute (their 401s carry its headers). */
const UNAUTHENTICATED_PER_MINUTE = 10;

/** The credentials a request sends: a bearer credential that is one of our API keys is the key it is. */
function credentialsOf(event: APIGatewayProxyEvent) {
  const headers = event.headers ?? {};
  const sourceIp = event.requestContext?.identity?.sourceIp ?? 'unknown';
  const bearerKey = /^Bearer\s+(ghk_\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  if (bearerKey) return { apiKey: bearerKey, sourceIp };
  return { authorization: headers.authorization, apiKey: headers['x-api-key'], sourceIp };
}

export function developerAuthorizer(route: RouteDef): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const internal = internalOf(request.context);
      const headers = request.event.headers ?? {};
      if (route.access === 'public') {
        if (route.optionalCredential && (headers.authorization !== undefined || headers['x-api-key'] !== undefined)) {
          const { principal, read } = await authenticate(credentialsOf(request.event));
          internal.principal = principal;
          internal.read = read;
        }
        return;
      }
      let authenticated;
      try {
        authenticated = await authenticate(credentialsOf(request.event));
      } catch (err) {
        if (err instanceof UnauthorizedError) {
          internal.rateLimit = await consumeRateLimit(
            'v1-unauthenticated',
            request.event.requestContext?.identity?.sourceIp ?? 'unknown',
            UNAUTHENTICATED_PER_MINUTE,
          );
        }
        throw err;
      }
      const { principal, read } = authenticated;
      internal.principal = principal;
      internal.read = read;
      if (!roleSatisfies(principal.role, route.access)) throw new ForbiddenError(`This needs the ${route.access} role`);
      if (!route.developer) return;
      const access = accessOf(principal);
      if (!access.endpoints.includes(route.developer.endpoint)) {
        internal.rateLimit = await minuteState(access);
        assertTierIncludes(access, route.developer.endpoint);
      }
      internal.rateLimit = await countDeveloperCall(access);
    },
  };
}
