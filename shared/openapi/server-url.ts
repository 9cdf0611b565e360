/**
 * The public base URL of this deployment, as the caller reached it, for the document's `servers`.
 *
 * Behind API Gateway the client's path carries a prefix the route table does not know: the stage
 * (`/prod/openapi.json` on the execute-api host) or a base path mapping of a custom domain.
 * `requestContext.path` is the path as the client sent it, so the prefix is what precedes the
 * route's own path there. Locally there is no prefix.
 */

/** The parts of an API Gateway REST proxy event this needs; loose, so any event shape fits. */
export interface OriginEvent {
  headers?: Record<string, string | undefined> | null;
  requestContext?: { path?: string; stage?: string; domainName?: string } | null;
}

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)*$/;

function header(headers: OriginEvent['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * `https://abc.execute-api.eu-west-1.amazonaws.com/prod` in AWS, `http://127.0.0.1:3000` locally;
 * `/` when the request says nothing usable about its origin.
 */
export function serverUrlOf(event: OriginEvent, routePath: string): string {
  const host = (header(event.headers, 'host') ?? event.requestContext?.domainName ?? '').trim();
  if (!HOST.test(host)) return '/';
  // API Gateway always sets X-Forwarded-Proto; the local server does not (plain http).
  const forwarded = header(event.headers, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';

  let prefix = '';
  const clientPath = event.requestContext?.path;
  if (typeof clientPath === 'string' && clientPath.endsWith(routePath)) {
    prefix = clientPath.slice(0, clientPath.length - routePath.length);
  } else if (event.requestContext?.stage && /\.execute-api\./.test(host)) {
    prefix = `/${event.requestContext.stage}`;
  }
  if (!PREFIX.test(prefix)) prefix = '';
  return `${scheme}://${host}${prefix}`;
}
