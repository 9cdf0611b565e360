/**
 * Incidents and vessels as MCP resources, read through the same API routes as the tools with the
 * caller's credential: `gatehouse://incidents/{incident_id}` (GET /api/v1/incidents/{id}) and
 * `gatehouse://vessels/{mmsi}` (GET /api/v1/vessels/{mmsi}, the behaviour profile). The list
 * names the tenant's 20 most recent incidents (one GET /api/v1/incidents); vessels are many and
 * come and go, so they are reached by template only.
 */
import {
  ErrorCode,
  McpError,
  type ListResourcesResult,
  type ReadResourceResult,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { incidentsGetRoute, incidentsListRoute } from '../routes/incidents.js';
import type { RouteDef } from '../routes/types.js';
import { vesselsGetRoute } from '../routes/vessels.js';
import { callRoute, type ApiTarget } from './api-call.js';

/** The MCP error code for a resource that does not exist (or is another tenant's). */
const RESOURCE_NOT_FOUND = -32002;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'gatehouse://incidents/{incident_id}',
    name: 'incident',
    title: 'Incident',
    description: 'One incident of your tenant, whole: status, severity, SLA, escalation, linked events, transitions.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'gatehouse://vessels/{mmsi}',
    name: 'vessel',
    title: 'Vessel profile',
    description: "One vessel's behavioural profile from your tenant's AIS data, by MMSI.",
    mimeType: 'application/json',
  },
];

const PATTERNS: Array<{ pattern: RegExp; route: RouteDef; param: string }> = [
  { pattern: /^gatehouse:\/\/incidents\/([^/?#]+)$/, route: incidentsGetRoute, param: 'incident_id' },
  { pattern: /^gatehouse:\/\/vessels\/([^/?#]+)$/, route: vesselsGetRoute, param: 'mmsi' },
];

async function fetchJson(
  target: ApiTarget,
  route: RouteDef,
  input: Record<string, unknown>,
  what: string,
): Promise<unknown> {
  const answer = await callRoute(target, target.baseUrl, route, `resource:${route.id}`, input);
  if (answer.status === 200) return answer.body;
  const detail =
    answer.body && typeof answer.body === 'object' && 'detail' in answer.body
      ? String(answer.body.detail)
      : `HTTP ${answer.status}`;
  if (answer.status === 404 || answer.status === 422)
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${what} (${detail})`);
  throw new McpError(ErrorCode.InvalidRequest, `${what}: ${detail} (HTTP ${answer.status})`);
}

export async function readResource(target: ApiTarget, uri: string): Promise<ReadResourceResult> {
  for (const { pattern, route, param } of PATTERNS) {
    const id = pattern.exec(uri)?.[1];
    if (id === undefined) continue;
    const body = await fetchJson(target, route, { [param]: decodeURIComponent(id) }, uri);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
  }
  throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (not a gatehouse:// incident or vessel URI)`);
}

export async function listResources(target: ApiTarget): Promise<ListResourcesResult> {
  const body = await fetchJson(target, incidentsListRoute, { limit: 20, offset: 0 }, 'incidents');
  const items =
    body && typeof body === 'object' && 'items' in body && Array.isArray(body.items)
      ? (body.items as Array<{ incident_id: string; title: string; severity?: string; status?: string }>)
      : [];
  return {
    resources: items.map((i) => ({
      uri: `gatehouse://incidents/${i.incident_id}`,
      name: i.title,
      description: [i.severity, i.status].filter(Boolean).join(', '),
      mimeType: 'application/json',
    })),
  };
}
