/** Events: ingest, read, triage, manual reports and the live stream. */
import {
  eventBatchCreate,
  eventCreate,
  eventListQuery,
  eventPath,
  eventProcessedUpdate,
  eventResponse,
  eventScopeQuery,
  eventStreamQuery,
  idempotencyHeaders,
  streamHeaders,
  manualReportCreate,
  manualReportResponse,
} from '../schemas/events.js';
import type { RouteDef } from './types.js';

const IDEMPOTENCY =
  'Send an `Idempotency-Key` header (1 to 200 characters) to make a retry safe: the same key with the same body answers the first answer again and stores nothing twice; with another body it is 409. Keys are kept 24 hours. Bodies over 1 MB are 413.';

export const eventsStreamRoute = {
  id: 'events.stream',
  method: 'GET',
  path: '/api/v1/events/stream',
  handler: 'functions/events/stream.ts',
  access: 'VIEWER',
  tenant: 'found',
  tag: 'events',
  summary: 'Live stream of new events (server-sent events)',
  description:
    'Each message: `id` = event id, `event` = event type, `data` = the event JSON. New events are picked up every 2 seconds. Reconnect with `Last-Event-ID` to resume after that event with nothing lost or repeated. A comment line is sent every 15 seconds while idle. The stream ends after about 14 minutes; reconnect.',
  request: { query: eventStreamQuery, headers: streamHeaders },
  response: { status: 200, description: 'An event stream.', contentType: 'text/event-stream' },
  errors: [404],
  streaming: true,
  timeoutSeconds: 900,
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const eventsCreateRoute = {
  id: 'events.create',
  method: 'POST',
  path: '/api/v1/events',
  handler: 'functions/events/create.ts',
  access: 'OPERATOR',
  tenant: 'body',
  tag: 'events',
  summary: 'Ingest one event',
  description: `Matched against the environment's zone geofences and scored on arrival. ${IDEMPOTENCY}`,
  request: { body: eventCreate, headers: idempotencyHeaders },
  response: { status: 201, description: 'The stored event, scored.', schema: eventResponse },
  errors: [404, 409, 413],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const eventsBatchRoute = {
  id: 'events.batch',
  method: 'POST',
  path: '/api/v1/events/batch',
  handler: 'functions/events/batch.ts',
  access: 'OPERATOR',
  tenant: 'events',
  tag: 'events',
  summary: 'Ingest 1 to 100 events at once',
  description: `All are stored or the request fails as a whole (retry it: events with your event_id or under the same Idempotency-Key are stored once). ${IDEMPOTENCY}`,
  request: { body: eventBatchCreate, headers: idempotencyHeaders },
  response: {
    status: 201,
    description: 'The stored events, in the order sent.',
    schema: { type: 'array', items: eventResponse },
  },
  errors: [404, 409, 413],
  timeoutSeconds: 29,
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const eventsListRoute = {
  id: 'events.list',
  method: 'GET',
  path: '/api/v1/events',
  handler: 'functions/events/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  plan: { retention: 'events' },
  tag: 'events',
  summary: 'List events, newest first, by environment, zone, type, source, score, processed flag and time',
  description:
    "Served by the narrowest key: processed events, an environment (a zone's, when only a zone is named), a type, or all of the tenant's, newest first; the other filters apply to what that key holds. To fill a page a request reads at most 10,000 events; when matches may lie beyond, the answer says so in `X-Read-Limit-Reached`, and how far back it looked in `X-Read-Back-To` (narrow the time range to reach older ones).",
  request: { query: eventListQuery },
  response: {
    status: 200,
    description: 'A page of events.',
    schema: { type: 'array', items: eventResponse },
    headers: ['X-Read-Limit-Reached', 'X-Read-Back-To'],
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const eventsGetRoute = {
  id: 'events.get',
  method: 'GET',
  path: '/api/v1/events/{event_id}',
  handler: 'functions/events/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  plan: { retention: 'events' },
  tag: 'events',
  summary: 'Get an event',
  request: { path: eventPath, query: eventScopeQuery },
  response: { status: 200, description: 'The event.', schema: eventResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const eventsProcessedRoute = {
  id: 'events.processed',
  method: 'PATCH',
  path: '/api/v1/events/{event_id}/processed',
  handler: 'functions/events/processed.ts',
  access: 'OPERATOR',
  tenant: 'query',
  plan: { retention: 'events' },
  tag: 'events',
  summary: 'Mark an event processed (or not), optionally with a score and an incident',
  description:
    "Naming an `incident_id` links the event to that incident both ways in one write: the incident's `event_ids` gains it (and the incident it was in loses it), with a `linked` (`unlinked`) entry in each timeline. `incident_id: null` unlinks it. 404 for an unknown incident (or another tenant's); 409 when the incident lists 500 events already.",
  request: { path: eventPath, query: eventScopeQuery, body: eventProcessedUpdate },
  response: { status: 200, description: 'The event as it is now.', schema: eventResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const reportsManualRoute = {
  id: 'reports.manual',
  method: 'POST',
  path: '/api/v1/reports/manual',
  handler: 'functions/reports/manual.ts',
  access: 'OPERATOR',
  tenant: 'body',
  tag: 'reports',
  summary: 'File a report by a person; it becomes a manual_report event, matched and scored',
  description: IDEMPOTENCY,
  request: { body: manualReportCreate, headers: idempotencyHeaders },
  response: { status: 201, description: 'The report and the event it became.', schema: manualReportResponse },
  errors: [404, 409, 413],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const eventsRoutes: readonly RouteDef[] = [
  eventsStreamRoute,
  eventsCreateRoute,
  eventsBatchRoute,
  eventsListRoute,
  eventsGetRoute,
  eventsProcessedRoute,
  reportsManualRoute,
];
