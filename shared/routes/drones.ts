/** Drone dispatch through `drone` integrations, and the signed callbacks of the docks (docs/drones.md). */
import { incidentPath } from '../schemas/incidents.js';
import { pagingQuery } from '../schemas/common.js';
import {
  droneCallbackAnswer,
  droneCallbackBody,
  droneCallbackHeaders,
  droneCallbackPath,
  droneDispatchCreate,
  droneDispatchList,
  droneDispatchResponse,
} from '../schemas/drones.js';
import type { RouteDef } from './types.js';

export const dronesDispatchRoute = {
  id: 'drones.dispatch',
  method: 'POST',
  path: '/api/v1/incidents/{incident_id}/drone-dispatches',
  handler: 'functions/drones/dispatch.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'drones',
  summary: 'Send a drone to an incident through a drone integration (a signed dispatch command to the dock)',
  description:
    "One dispatch per incident and task: the first is 201; a later one of the same task answers the first with 200 and sends nothing (unless the dock never took its command: then that command is sent again, under the same `webhook-id`). The command is signed per Standard Webhooks with the integration's secret and sent now, bounded to 8 s: `status` says whether the dock took it (`sent`) or not (`failed`). The target (the incident's location when absent) must lie inside an active zone of one of the tenant's environments or within 5 km of an environment's location (422). An unknown integration is 404; one of another kind or disabled is 422; a resolved, closed or cancelled incident 409. Audited (`drone.dispatched`), and an entry of kind `drone` on the incident's timeline.",
  request: { path: incidentPath, body: droneDispatchCreate },
  response: {
    status: 201,
    description: 'The dispatch, created now.',
    schema: droneDispatchResponse,
    alsoStatus: {
      status: 200,
      description: 'The first dispatch of this task for the incident, which existed already.',
    },
  },
  errors: [404, 409],
  timeoutSeconds: 15,
  grants: { audit: 'seal', table: 'write', secrets: 'open' },
} as const satisfies RouteDef;

export const dronesListRoute = {
  id: 'drones.list',
  method: 'GET',
  path: '/api/v1/incidents/{incident_id}/drone-dispatches',
  handler: 'functions/drones/list.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'drones',
  summary: "An incident's drone dispatches (at most one per task), oldest first, with the dock's last update",
  request: { path: incidentPath, query: pagingQuery },
  response: { status: 200, description: 'A page of the dispatches.', schema: droneDispatchList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const dronesCallbackRoute = {
  id: 'drones.callback',
  method: 'POST',
  path: '/api/v1/drone-callbacks/{tenant_id}/{integration_id}',
  handler: 'functions/drones/callback.ts',
  access: 'public',
  tenant: 'found',
  tag: 'drones',
  summary: "A dock's status update for a dispatch, signed with the drone integration's secret",
  description:
    "No credential: the Standard Webhooks signature over the raw body, with the secret of that tenant's `drone` integration, is the proof (checked before the body is read). A missing or bad signature, a timestamp more than 5 minutes off, or an address that names no enabled drone integration: 401. The update becomes an entry of kind `drone` on the incident's timeline and the dispatch's status; a `webhook-id` taken before adds nothing (`duplicate: true`). A dispatch that is not this integration's is 404. The address is the command's `callback_url`.",
  request: { path: droneCallbackPath, headers: droneCallbackHeaders, body: droneCallbackBody },
  response: { status: 200, description: 'Taken (or taken before).', schema: droneCallbackAnswer },
  errors: [401, 404],
  rateLimit: { name: 'drone-callback', perMinute: 600 },
  grants: { audit: 'seal', table: 'write', secrets: 'open' },
} as const satisfies RouteDef;

export const dronesRoutes: readonly RouteDef[] = [dronesDispatchRoute, dronesListRoute, dronesCallbackRoute];
