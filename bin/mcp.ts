/**
 * The agent tool server over stdio (`npx gatehouse-mcp`, `npm run mcp`; docs/mcp.md): JSON-RPC on
 * stdin and stdout, logs on stderr. Every tool call is a request to the Gatehouse API at
 * GATEHOUSE_BASE_URL with the API key GATEHOUSE_API_KEY (one of the portal's: POST
 * /api/v1/portal/api-keys), so it acts with that key's tenant, role and limits.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { GatehouseMcpServer } from '../shared/mcp/server.js';

const apiKey = process.env.GATEHOUSE_API_KEY?.trim();
if (!apiKey) {
  console.error(
    'gatehouse-mcp: set GATEHOUSE_API_KEY to an API key of the Gatehouse portal (POST /api/v1/portal/api-keys)',
  );
  process.exit(2);
}
const rawBase = process.env.GATEHOUSE_BASE_URL?.trim() || 'http://127.0.0.1:3000';
let baseUrl: string;
try {
  const url = new URL(rawBase);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  baseUrl = url.href.replace(/\/+$/, '');
} catch {
  console.error(`gatehouse-mcp: GATEHOUSE_BASE_URL must be the API's http(s) URL, not "${rawBase}"`);
  process.exit(2);
}

const server = new GatehouseMcpServer({ baseUrl, credential: { apiKey } });
const transport = new StdioServerTransport();
transport.onclose = () => process.exit(0);
server.onerror = (error) => console.error('gatehouse-mcp:', error.message);
await server.connect(transport);
console.error(`gatehouse-mcp: serving ${baseUrl} over stdio`);
