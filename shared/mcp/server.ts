/**
 * The agent tool server: one MCP server for both transports (stdio, bin/mcp.ts; stateless
 * streamable HTTP, functions/mcp/post.ts). Built on the SDK's Protocol (request routing, JSON-RPC
 * errors, cancellation, ping) with the initialize handshake here: the SDK's `Server` class would
 * carry Ajv's schema compiler into the `/mcp` function (it validates elicitation answers, which
 * this server never asks for), against the bundle rule that no function compiles schemas.
 *
 * Tools (shared/mcp/tools.ts), resources (an incident and a vessel by URI templates) and one
 * triage prompt, each served by calling the API with the caller's credential.
 */
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiTarget } from './api-call.js';
import { runTool } from './run-tool.js';
import { PROMPTS, promptMessages } from './prompts.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import { inputSchemaOf, outputSchemaOf } from './tool-schemas.js';
import { TOOLS, toolNamed } from './tools.js';

export const SERVER_INFO = { name: 'gatehouse', title: 'Gatehouse', version: '0.1.0' };

const INSTRUCTIONS =
  "Gatehouse is a multi-tenant physical-security service. Every tool acts in the tenant of the credential this server was given, with that key's role: a refusal comes back as a tool error saying why. Lists page: pass next_cursor as cursor for more. Incidents and vessels are also resources (gatehouse://incidents/{incident_id}, gatehouse://vessels/{mmsi}).";

/** The tools as tools/list answers them: computed once, from the routes' schemas. */
let listed: Tool[] | undefined;
export function toolList(): Tool[] {
  listed ??= TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputSchemaOf(t),
    outputSchema: outputSchemaOf(t),
    annotations: { title: t.title, ...t.hints },
  }));
  return listed;
}

const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
};

/** What the host of a server learns of its work. */
export interface McpServerHooks {
  /**
   * After each tools/call of a known tool: `error` for a tool result that is an error or a call
   * that threw. The route (functions/mcp/post.ts) counts them as the `McpToolCalls` metric; the
   * stdio server (bin/mcp.ts) does not, its standard output being the protocol's.
   */
  onToolCall?: (tool: string, outcome: 'success' | 'error') => void;
}

export class GatehouseMcpServer extends Protocol<ServerRequest, ServerNotification, ServerResult> {
  constructor(target: ApiTarget, hooks: McpServerHooks = {}) {
    super();
    this.setRequestHandler(InitializeRequestSchema, (request) => ({
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(request.params.protocolVersion)
        ? request.params.protocolVersion
        : LATEST_PROTOCOL_VERSION,
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions: INSTRUCTIONS,
    }));
    this.setNotificationHandler(InitializedNotificationSchema, () => undefined);
    this.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
    this.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = toolNamed(request.params.name);
      // An unknown tool is the caller's mistake about the server, not a refusal: a protocol error.
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      let outcome: 'success' | 'error' = 'error';
      try {
        const result = await runTool(tool, target, request.params.arguments ?? {});
        if (!result.isError) outcome = 'success';
        return result;
      } finally {
        hooks.onToolCall?.(tool.name, outcome);
      }
    });
    this.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
    this.setRequestHandler(ListResourcesRequestSchema, () => listResources(target));
    this.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(target, request.params.uri));
    this.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
    this.setRequestHandler(GetPromptRequestSchema, (request) =>
      promptMessages(request.params.name, request.params.arguments ?? {}),
    );
  }

  // This server sends the client no requests and no notifications, and serves only what it declares.
  protected assertCapabilityForMethod(method: string): void {
    throw new Error(`the server sends no ${method} requests`);
  }

  protected assertNotificationCapability(): void {}

  protected assertRequestHandlerCapability(): void {}

  protected assertTaskCapability(method: string): void {
    throw new Error(`the server sends no task requests (${method})`);
  }

  protected assertTaskHandlerCapability(): void {}
}
