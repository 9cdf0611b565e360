/**
 * Where people reach the API, for links mailed to them: PUBLIC_API_URL when set (the local server
 * sets its own address), otherwise the address the request came to, with its stage prefix (API
 * Gateway's `requestContext.path` is the resource path behind the stage, `/prod/api/...`).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '../config.js';

export function publicBaseOf(event: APIGatewayProxyEvent): string {
  if (config.publicApiUrl) return config.publicApiUrl;
  const full = event.requestContext.path ?? event.path;
  const stage = full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
  return `https://${event.requestContext.domainName ?? event.headers.host}${stage}`;
}
