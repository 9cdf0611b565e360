/** The agent tool server's HTTP transport (POST /mcp, docs/mcp.md): JSON-RPC 2.0 messages. */
import type { JsonSchema } from './json-schema.js';

const message = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request, notification or response of the Model Context Protocol.',
  properties: { jsonrpc: { type: 'string', const: '2.0' } },
  required: ['jsonrpc'],
} as const satisfies JsonSchema;

export const mcpRequest = /* @__PURE__ */ (() =>
  ({
    description: 'One MCP JSON-RPC message, or a batch of them.',
    anyOf: [message, { type: 'array', items: message, minItems: 1, maxItems: 20 }],
  }) as const satisfies JsonSchema)();

export const mcpResponse = /* @__PURE__ */ (() =>
  ({
    description: 'The JSON-RPC response(s) (stateless streamable HTTP with JSON responses: no stream, no session).',
    anyOf: [
      { type: 'object', properties: { jsonrpc: { type: 'string', const: '2.0' } }, required: ['jsonrpc'] },
      { type: 'array', items: { type: 'object' } },
    ],
  }) as const satisfies JsonSchema)();
