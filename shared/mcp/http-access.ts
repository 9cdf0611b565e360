/**
 * What the `/mcp` route takes from its request besides the MCP message: the credential to call
 * the API with (the one the chain just verified, sent on unchanged), and the hosts and origins it
 * accepts (DNS-rebinding protection: only the API's own, from its configured URL, never from the
 * request).
 */
import type { ApiCredential } from './api-call.js';

const LOOPBACK = ['127.0.0.1', 'localhost'];

/** What of the API Gateway event says where the API is. */
export interface RequestPlace {
  path: string;
  requestContext?: { domainName?: string; path?: string } | null;
}

/**
 * The API's own URL, which tool calls go to: PUBLIC_API_URL when set (the local runtime sets its
 * own; a tunnel or proxy may be named), else the domain API Gateway served this request on, with
 * the prefix (the stage, or a custom domain's base path) its full path has before the route's.
 * API Gateway sets `domainName` and the full `path` itself; no request header decides them.
 */
export function apiBaseOf(event: RequestPlace, configured: string | undefined): string | undefined {
  if (configured) return configured;
  const domain = event.requestContext?.domainName;
  const full = event.requestContext?.path;
  if (!domain || !full || !full.endsWith(event.path)) return undefined;
  return `https://${domain}${full.slice(0, full.length - event.path.length)}`;
}

/** The credential of a request the chain authenticated: an API key (bearer `ghk_...` or X-API-Key) or a bearer token. */
export function credentialOf(headers: Readonly<Record<string, string | undefined>>): ApiCredential {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  if (bearer) return bearer.startsWith('ghk_') ? { apiKey: bearer } : { bearer };
  const key = headers['x-api-key'];
  if (key) return { apiKey: key };
  throw new Error('the chain let a request without a credential through');
}

/** The Host values and Origins allowed: the API's URL's, and on loopback both loopback names. */
export function allowedOriginsOf(baseUrl: string): { hosts: string[]; origins: string[] } {
  const url = new URL(baseUrl);
  const names = LOOPBACK.includes(url.hostname) ? LOOPBACK : [url.hostname];
  const port = url.port ? `:${url.port}` : '';
  return {
    hosts: names.map((n) => `${n}${port}`),
    origins: names.map((n) => `${url.protocol}//${n}${port}`),
  };
}

/**
 * The transport's own refusal (a foreign Host or Origin, a missing Accept, a message that is not
 * JSON-RPC) in the contract's error body: its JSON-RPC error's message, or what it said.
 */
export function transportRefusal(text: string, status: number): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'error' in parsed &&
      parsed.error &&
      typeof parsed.error === 'object' &&
      'message' in parsed.error
    ) {
      return String(parsed.error.message);
    }
  } catch {
    // not JSON: said as it came below
  }
  return text.trim().slice(0, 300) || `MCP transport refused the request (${status})`;
}
