/**
 * A loopback proxy to a Gatehouse `/mcp` endpoint that adds the credential a client cannot send
 * itself: the MCP conformance suite (`@modelcontextprotocol/conformance server --url`) takes a URL
 * and no header option. Every request is passed on to `target` with `Authorization: Bearer <key>`
 * and the target's own `Host` (the endpoint refuses another host: DNS-rebinding protection); the
 * answer, streamed or not, comes back as it is. A development tool (bin/mcp-key-proxy.ts), never
 * deployed: it listens on 127.0.0.1 only.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface KeyProxy {
  /** The proxy's own `/mcp` URL, to give the client. */
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110, 7.6.1) and those the proxy sets itself. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  'origin',
]);

/**
 * The request's headers for the target. `Host` and `Origin` are translated only when they are the
 * proxy's own; any other is passed on as it came, so the endpoint's DNS-rebinding check still
 * meets a foreign host or origin (the conformance suite tests that through the proxy).
 */
function forwardedHeaders(
  headers: IncomingHttpHeaders,
  own: string,
  target: URL,
  apiKey: string,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !DROPPED.has(name)) out[name] = value;
  out.host = headers.host === own ? target.host : (headers.host ?? target.host);
  if (headers.origin !== undefined) out.origin = headers.origin === `http://${own}` ? target.origin : headers.origin;
  out.authorization = `Bearer ${apiKey}`;
  return out;
}

export async function startKeyProxy(options: { target: string; apiKey: string; port?: number }): Promise<KeyProxy> {
  const target = new URL(options.target);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  let own = '';
  const server: Server = createServer((req, res) => {
    const upstream = send(
      target,
      { method: req.method, headers: forwardedHeaders(req.headers, own, target, options.apiKey) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (res.headersSent) return void res.destroy(err);
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `The proxy could not reach ${target.origin}: ${err.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  own = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
