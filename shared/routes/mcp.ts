/** The agent tool server over stateless streamable HTTP (docs/mcp.md); stdio is bin/mcp.ts. */
import { mcpRequest, mcpResponse } from '../schemas/mcp.js';
import type { RouteDef } from './types.js';

export const mcpRoute = {
  id: 'mcp.post',
  method: 'POST',
  path: '/mcp',
  handler: 'functions/mcp/post.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'mcp',
  summary: 'The agent tool server (MCP, stateless streamable HTTP, JSON responses)',
  description:
    'Model Context Protocol over streamable HTTP, stateless (no session, no server stream; GET and DELETE are 405): send `Accept: application/json, text/event-stream`. ' +
    "The credential is an API key as `Authorization: Bearer ghk_...` (or `X-API-Key`), or a user's bearer token; each tool call is a request to this API with that credential, " +
    "so it has the credential's tenant, role, limits and audit. A foreign `Host` or `Origin` is refused (403, DNS-rebinding protection). Tool refusals are tool results with `isError`, not HTTP errors.",
  request: { body: mcpRequest },
  response: {
    status: 200,
    description: 'The JSON-RPC answer; 202 with no body for notifications only.',
    schema: mcpResponse,
    alsoStatus: { status: 202, description: 'Only notifications or responses were sent: nothing to answer.' },
  },
  // The transport's refusals, in the contract's body: 400 not a JSON-RPC message, 403 foreign Host or Origin,
  // 406 an Accept without application/json and text/event-stream, 415 not JSON.
  errors: [400, 403, 406, 415],
  timeoutSeconds: 29,
  grants: { table: 'write' },
} as const satisfies RouteDef;

/** Methods of `/mcp` a stateless server answers 405 (lib/api.ts `addMethodNotAllowed` in AWS; the local server's own 405). */
export const MCP_METHODS_NOT_ALLOWED = ['GET', 'DELETE'] as const;

export const mcpRoutes: readonly RouteDef[] = [mcpRoute];
