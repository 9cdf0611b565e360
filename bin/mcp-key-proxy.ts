/**
 * `npm run mcp:proxy`: a loopback proxy that adds `GATEHOUSE_API_KEY` to every request to
 * `GATEHOUSE_BASE_URL/mcp`, for MCP clients that cannot send a header, such as the conformance
 * suite (docs/mcp.md). `MCP_PROXY_PORT` picks its port (default 3099).
 */
import { startKeyProxy } from '../shared/local/mcp-key-proxy.js';

const apiKey = process.env.GATEHOUSE_API_KEY;
if (!apiKey) {
  process.stderr.write('Set GATEHOUSE_API_KEY to the API key the proxy should send (docs/mcp.md).\n');
  process.exit(2);
}
const base = process.env.GATEHOUSE_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const proxy = await startKeyProxy({
  target: new URL('/mcp', base).toString(),
  apiKey,
  port: Number(process.env.MCP_PROXY_PORT ?? 3099),
});
process.stdout.write(`Passing ${proxy.url} on to ${base}/mcp with the API key; Ctrl-C stops it.\n`);
