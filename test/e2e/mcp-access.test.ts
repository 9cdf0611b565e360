/**
 * Reaching `/mcp` without a credential: counted per address (10 a minute, then 429), and the key
 * proxy (`npm run mcp:proxy`, shared/local/mcp-key-proxy.ts) in front of the run's `/mcp`:
 * a client that sends no credential and its own Host, as the MCP conformance suite does, is
 * served with the proxy's key; a wrong key is the endpoint's 401, passed back as it is.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startKeyProxy, type KeyProxy } from '../../shared/local/mcp-key-proxy.js';
import { baseUrl, call, randomClientIp, registerTenant } from '../support/api.js';

const proxies: KeyProxy[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
});

/** A JSON-RPC call as a client without a credential makes it, to `url`. */
async function rpc(url: string, method: string, params: Record<string, unknown> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    // An address of its own: other tests' refused calls from loopback must not bring this one to 429.
    headers: {
      'x-forwarded-for': randomClientIp(),
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('mcp without a credential', () => {
  it('answers 401 ten times a minute per address, then 429 with Retry-After', async () => {
    const ip = randomClientIp();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await fetch(new URL('/mcp', baseUrl()), {
        method: 'POST',
        headers: {
          'x-forwarded-for': ip,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('10');
  });
});

describe('mcp key proxy', () => {
  it("serves a client that cannot send a header with the proxy's key; a wrong key stays refused", async () => {
    const org = await registerTenant('McpProxy');
    const key = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'conformance', role: 'VIEWER' },
    });
    expect(key.status, key.text).toBe(201);
    const target = new URL('/mcp', baseUrl()).toString();
    // Straight to the endpoint, without a credential: refused.
    expect((await rpc(target, 'tools/list')).status).toBe(401);

    const proxy = await startKeyProxy({ target, apiKey: key.body.api_key });
    proxies.push(proxy);
    const init = await rpc(proxy.url, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'conformance', version: '1' },
    });
    expect(init.status).toBe(200);
    expect(init.body.result.serverInfo.name).toBe('gatehouse');
    const tools = await rpc(proxy.url, 'tools/list');
    expect(tools.status).toBe(200);
    expect(tools.body.result.tools).toHaveLength(27);

    // A foreign Host or Origin is passed on as it came: the endpoint's DNS-rebinding check still holds.
    const foreign = await new Promise<number>((resolve, reject) => {
      const url = new URL(proxy.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example.com',
            origin: 'http://evil.example.com',
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject).end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    expect(foreign).toBe(403);

    const wrong = await startKeyProxy({ target, apiKey: 'ghk_not_a_key' });
    proxies.push(wrong);
    expect((await rpc(wrong.url, 'tools/list')).status).toBe(401);
  });
});
