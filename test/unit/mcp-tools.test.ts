/**
 * The agent tool server's pure parts: tool schemas derived from the routes (no tenant, a cursor for
 * the offset, arrays wrapped), the API's own URL and the hosts it accepts, and its cursors.
 */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/mcp/cursors.js';
import { allowedOriginsOf, apiBaseOf, transportRefusal } from '../../shared/mcp/http-access.js';
import { failure } from '../../shared/mcp/tool-results.js';
import { inputSchemaOf, outputSchemaOf } from '../../shared/mcp/tool-schemas.js';
import { TOOLS, toolNamed } from '../../shared/mcp/tools.js';
import { eventsListRoute } from '../../shared/routes/events.js';

/** A schema's keywords, for reading in assertions. */
const view = (schema: object): Record<string, any> => ({ ...schema });

describe('tool schemas', () => {
  it("are the route's own fields, without tenant_id, with cursor for offset, and the answer wrapped as an object", () => {
    const search = toolNamed('search_events')!;
    const input = view(inputSchemaOf(search));
    const routeQuery = eventsListRoute.request.query.properties;
    expect(Object.keys(input.properties).sort()).toEqual(
      [...Object.keys(routeQuery).filter((k) => k !== 'tenant_id' && k !== 'offset'), 'cursor'].sort(),
    );
    expect(input.properties.q).toEqual(routeQuery.q);
    expect(input.additionalProperties).toBe(false);
    const output = view(outputSchemaOf(search));
    expect(output.properties.items).toEqual(eventsListRoute.response.schema);
    expect(output.required).toEqual(['items', 'next_cursor']);
  });

  it('merge path and body fields, leave out what the tool fixes, and keep what every route requires', () => {
    const dispatch = view(inputSchemaOf(toolNamed('dispatch_drone')!));
    expect(dispatch.required.sort()).toEqual(['incident_id', 'integration_id', 'task']);
    const provision = view(inputSchemaOf(toolNamed('provision_free_account')!));
    expect(provision.properties).not.toHaveProperty('tier');
    expect(provision.properties).not.toHaveProperty('rate_limit');
    const feed = view(outputSchemaOf(toolNamed('query_threat_feed')!));
    expect(feed.anyOf).toHaveLength(2);
  });

  it('hold for every tool: object schemas, no tenant_id anywhere in the input', () => {
    for (const tool of TOOLS) {
      const input = view(inputSchemaOf(tool));
      expect(input.type, tool.name).toBe('object');
      expect(input.properties, tool.name).not.toHaveProperty('tenant_id');
      expect(outputSchemaOf(tool).type, tool.name).toBe('object');
    }
  });
});

describe('the HTTP transport', () => {
  it('calls the configured URL, else the one API Gateway served the request on (its stage or base path kept)', () => {
    expect(
      apiBaseOf(
        { path: '/mcp', requestContext: { domainName: 'evil.example', path: '/mcp' } },
        'http://127.0.0.1:3000',
      ),
    ).toBe('http://127.0.0.1:3000');
    expect(
      apiBaseOf(
        { path: '/mcp', requestContext: { domainName: 'abc.execute-api.eu-west-1.amazonaws.com', path: '/prod/mcp' } },
        undefined,
      ),
    ).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
    expect(
      apiBaseOf({ path: '/mcp', requestContext: { domainName: 'api.example.com', path: '/mcp' } }, undefined),
    ).toBe('https://api.example.com');
    expect(apiBaseOf({ path: '/mcp', requestContext: null }, undefined)).toBeUndefined();
  });

  it('accepts only its own host and origin; on loopback both loopback names', () => {
    expect(allowedOriginsOf('http://127.0.0.1:3000')).toEqual({
      hosts: ['127.0.0.1:3000', 'localhost:3000'],
      origins: ['http://127.0.0.1:3000', 'http://localhost:3000'],
    });
    expect(allowedOriginsOf('https://abc.execute-api.eu-west-1.amazonaws.com/prod')).toEqual({
      hosts: ['abc.execute-api.eu-west-1.amazonaws.com'],
      origins: ['https://abc.execute-api.eu-west-1.amazonaws.com'],
    });
  });

  it("says the transport's refusal in the contract's words", () => {
    expect(
      transportRefusal(
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Origin header: http://evil.example"},"id":null}',
        403,
      ),
    ).toBe('Invalid Origin header: http://evil.example');
    expect(transportRefusal('', 406)).toBe('MCP transport refused the request (406)');
  });
});

describe('cursors', () => {
  it('round-trip for their own tool and are refused by another', () => {
    const c = encodeCursor('get_incidents', 40);
    expect(decodeCursor('get_incidents', c)).toBe(40);
    expect(decodeCursor('get_incidents', undefined)).toBe(0);
    expect(() => decodeCursor('search_events', c)).toThrow(/cursor/);
    expect(() => decodeCursor('get_incidents', 'garbage')).toThrow(/cursor/);
  });
});

describe('a refused call as a tool error', () => {
  const text = (status: number, detail: string, retryAfter: string | null = null) =>
    (failure({ status, body: { detail }, retryAfter, requestId: null, nextPage: false }).content[0] as { text: string })
      .text;

  it('names the kind of refusal once, whether or not the API said it already', () => {
    expect(text(404, 'Not found')).toBe('Not found');
    expect(text(404, 'Incident not found')).toBe('Not found: Incident not found');
    expect(text(401, 'Not authenticated: send a bearer token')).toBe('Not authenticated: send a bearer token');
    expect(text(403, 'Keys are issued by a TENANT_ADMIN')).toBe('Not allowed: Keys are issued by a TENANT_ADMIN');
    expect(text(429, 'Rate limited for this tool', '7')).toBe('Rate limited for this tool (retry after 7 s)');
    expect(text(418, 'No')).toBe('Refused (418): No');
  });
});
