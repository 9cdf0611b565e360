/**
 * POST /mcp: the agent tool server over stateless streamable HTTP (docs/mcp.md). A fresh server
 * and transport per request (stateless), JSON responses, DNS-rebinding protection with the API's
 * own host and origin as the only ones allowed. Tool calls go to this API's own URL (apiBaseOf)
 * with the credential the request came with.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { config } from '../../shared/config.js';
import { metrics } from '../../shared/metrics.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { allowedOriginsOf, apiBaseOf, credentialOf, transportRefusal } from '../../shared/mcp/http-access.js';
import { GatehouseMcpServer } from '../../shared/mcp/server.js';
import { mcpRoute } from '../../shared/routes/mcp.js';
import { ServiceUnavailableError } from '../../shared/errors.js';

export const handler = httpHandler(
  mcpRoute,
  async (req) => {
    const baseUrl = apiBaseOf(req.event, config.publicApiUrl);
    if (!baseUrl)
      throw new ServiceUnavailableError('The API does not know its own URL: the tool server cannot call it');
    const { hosts, origins } = allowedOriginsOf(baseUrl);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: origins,
    });
    const server = new GatehouseMcpServer(
      { baseUrl, credential: credentialOf(req.headers) },
      { onToolCall: metrics.mcpToolCall },
    );
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.event.headers ?? {}))
        if (typeof value === 'string') headers.set(name, value);
      const request = new Request(`${baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(req.body) });
      const response = await transport.handleRequest(request, { parsedBody: req.body });
      const text = await response.text();
      if (response.status >= 400)
        return { status: response.status, json: { detail: transportRefusal(text, response.status) } };
      return { status: response.status, text, contentType: response.headers.get('content-type') ?? 'application/json' };
    } finally {
      await server.close();
    }
  },
  { authorizer: developerAuthorizer },
);
