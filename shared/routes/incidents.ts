/** Incidents: opening, reading, response, escalation, acknowledgement by link, feed and replay. */
import {
  acknowledgeQuery,
  feedEntry,
  feedQuery,
  incidentCreate,
  incidentEscalate,
  incidentList,
  incidentListQuery,
  incidentPath,
  incidentRespond,
  incidentResponse,
  incidentSnapshot,
  incidentComplete,
  incidentFinalize,
  MAX_VOICE_UPLOAD_BYTES,
  voiceIncidentCreate,
  voiceUploadUrlRequest,
  voiceUploadUrlResponse,
  publicIncidentCreate,
  publicIncidentReceipt,
  publicReportKeyResponse,
  replayTimeline,
  snapshotQuery,
} from '../schemas/incidents.js';
import type { RouteDef } from './types.js';

export const incidentsCreateRoute = {
  id: 'incidents.create',
  method: 'POST',
  path: '/api/v1/incidents',
  handler: 'functions/incidents/create.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'Open an incident directly (as a draft, or confirmed at once)',
  description:
    'A confirmed incident starts its SLA clock and notifies the first escalation level with an acknowledgement link (incident.notification on the event bus). `event_ids` links events of your tenant to it both ways. 404 when the environment or an event named is unknown (or of another tenant); 409 when an event named belongs to another incident.',
  request: { body: incidentCreate },
  response: { status: 201, description: 'The new incident.', schema: incidentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsVoiceRoute = {
  id: 'incidents.voice',
  method: 'POST',
  path: '/api/v1/incidents/voice',
  handler: 'functions/incidents/voice.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'Turn a spoken report into a draft incident: transcribed, fields extracted, follow-up questions listed',
  description:
    'Send a short recording as base64, the upload_key of a longer one PUT to a URL from POST /api/v1/incidents/voice/upload-url ' +
    `(a key under tenants/<tenant>/audio/, at most ${MAX_VOICE_UPLOAD_BYTES} bytes: 413 past it; its extension gives the format when none is sent), ` +
    'or a transcript made on the device. 422 when the recording is not base64, does not begin as its format, or cannot be read as audio (nothing is kept); ' +
    '503 with Retry-After when no speech recogniser is available or recognition could not finish in time; 409 while the tenant has the voice intake agent switched off (PATCH /api/v1/agents/voice-intake).',
  request: { body: voiceIncidentCreate },
  response: { status: 201, description: 'The draft.', schema: incidentResponse },
  // 409: the tenant switched the voice intake agent off (docs/operations.md).
  errors: [404, 409, 503],
  timeoutSeconds: 29,
  memoryMb: 1024,
  grants: { audit: 'seal', table: 'write', bucket: 'write', speech: 'write', ai: true },
} as const satisfies RouteDef;

export const incidentsVoiceUploadUrlRoute = {
  id: 'incidents.voiceUploadUrl',
  method: 'POST',
  path: '/api/v1/incidents/voice/upload-url',
  handler: 'functions/incidents/voice-upload-url.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'Get a presigned URL to upload a long recording, then send its key to POST /api/v1/incidents/voice',
  description:
    `For recordings too long to send as base64, up to ${MAX_VOICE_UPLOAD_BYTES} bytes. PUT exactly size_bytes bytes to upload_url ` +
    'with the headers given, within 15 minutes, then call POST /api/v1/incidents/voice with the upload_key. The key lies under your ' +
    "own tenant's audio prefix and ends in the format.",
  request: { body: voiceUploadUrlRequest },
  response: {
    status: 201,
    description: 'Where and how to PUT the recording, and the key to send afterwards.',
    schema: voiceUploadUrlResponse,
  },
  // Presigning calls nothing; the URL acts with this function's s3:PutObject. The table is for
  // the chain: authentication reads the user and tenant, the plan rate counts with UpdateItem.
  grants: { table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const incidentsCompleteRoute = {
  id: 'incidents.complete',
  method: 'PATCH',
  path: '/api/v1/incidents/{incident_id}/complete',
  handler: 'functions/incidents/complete.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: "Fill a draft's missing fields from answers to its follow-up questions",
  request: { path: incidentPath, body: incidentComplete },
  response: { status: 200, description: 'The draft, with what is still missing.', schema: incidentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsFinalizeRoute = {
  id: 'incidents.finalize',
  method: 'POST',
  path: '/api/v1/incidents/{incident_id}/finalize',
  handler: 'functions/incidents/finalize.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'Write the summary and confirm a draft (its SLA clock starts; the first level is notified)',
  request: { path: incidentPath, body: incidentFinalize },
  response: { status: 200, description: 'The confirmed incident.', schema: incidentResponse },
  errors: [404, 409],
  timeoutSeconds: 29,
  grants: { audit: 'seal', table: 'write', ai: true },
} as const satisfies RouteDef;

export const incidentsPublicRoute = {
  id: 'incidents.public',
  method: 'POST',
  path: '/api/v1/incidents/public',
  handler: 'functions/incidents/public.ts',
  access: 'public',
  tenant: 'found',
  tag: 'incidents',
  summary: 'Report an incident anonymously, to the organisation whose public reporting key you send',
  description:
    'No credential. At most 10 reports a minute from one address (429 with Retry-After past it); the address is never stored with the report. It opens a draft for the operators. ' +
    'Send the key as `report_key` (or `public_report_key`, the name it is shown with; one of the two). A `location` inside zones of the organisation puts the draft in those zones and their environment.',
  request: { body: publicIncidentCreate },
  response: {
    status: 201,
    description:
      "A receipt: the draft incident the report opened, without the organisation's internal ids (the fields of IncidentResponse a reporter may see).",
    schema: publicIncidentReceipt,
  },
  errors: [404, 429],
  rateLimit: { name: 'public-incident', perMinute: 10 },
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsPublicKeyRoute = {
  id: 'incidents.publicKey',
  method: 'POST',
  path: '/api/v1/incidents/public-key',
  handler: 'functions/incidents/public-key.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  bearerOnly: true,
  tag: 'incidents',
  summary: 'Make (or replace) the public reporting key anonymous reports use; shown once',
  response: { status: 201, description: 'The new key.', schema: publicReportKeyResponse },
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsListRoute = {
  id: 'incidents.list',
  method: 'GET',
  path: '/api/v1/incidents',
  handler: 'functions/incidents/list.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'incidents',
  summary: "List the tenant's incidents, filtered and sorted",
  description:
    'status and severity are served by an index; environment_id and zone_id filter the newest 1,000 incidents read from it, and every sort but the default (`created_at`, newest first) sorts those 1,000 too: `total` counts them at most.',
  request: { query: incidentListQuery },
  response: { status: 200, description: 'A page of incidents with the total.', schema: incidentList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const incidentsGetRoute = {
  id: 'incidents.get',
  method: 'GET',
  path: '/api/v1/incidents/{incident_id}',
  handler: 'functions/incidents/get.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'An incident in full: transitions, linked events, time to acknowledge and resolve',
  request: { path: incidentPath },
  response: { status: 200, description: 'The incident.', schema: incidentResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const incidentsRespondRoute = {
  id: 'incidents.respond',
  method: 'PATCH',
  path: '/api/v1/incidents/{incident_id}/respond',
  handler: 'functions/incidents/respond.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: 'Move the incident along its lifecycle, assign it, resolve it with notes, or add a note',
  description: 'A transition the lifecycle forbids is 409 and changes nothing. Resolving needs a resolution.',
  request: { path: incidentPath, body: incidentRespond },
  response: { status: 200, description: 'The incident as it is now.', schema: incidentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsEscalateRoute = {
  id: 'incidents.escalate',
  method: 'PATCH',
  path: '/api/v1/incidents/{incident_id}/escalate',
  handler: 'functions/incidents/escalate.ts',
  access: 'OPERATOR',
  tenant: 'credential',
  tag: 'incidents',
  summary: "Raise the escalation level by one and notify that level of the tenant's policy",
  description: "Past the policy's highest level, or for a draft or finished incident, 409.",
  request: { path: incidentPath, body: incidentEscalate },
  response: { status: 200, description: 'The incident with its new level.', schema: incidentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsAcknowledgeRoute = {
  id: 'incidents.acknowledge',
  method: 'POST',
  path: '/api/v1/incidents/{incident_id}/acknowledge',
  handler: 'functions/incidents/acknowledge.ts',
  access: 'public',
  tenant: 'found',
  tag: 'incidents',
  summary: 'Acknowledge an incident through the link of its notification (no credential)',
  description:
    "The token works once, for this incident only, until it expires; otherwise 403 and nothing changes. The form of the link's page (GET) posts here as `application/x-www-form-urlencoded`: that POST answers 303 back to the page, which says what happened.",
  request: { path: incidentPath, query: acknowledgeQuery },
  response: {
    status: 200,
    description: 'The incident, acknowledged.',
    schema: incidentResponse,
    redirect: {
      status: 303,
      description: "A form post from the link's page: back to the page (Location), acknowledged or not.",
    },
  },
  errors: [403, 409, 429],
  rateLimit: { name: 'acknowledge', perMinute: 30 },
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const incidentsAcknowledgePageRoute = {
  id: 'incidents.acknowledge.page',
  method: 'GET',
  path: '/api/v1/incidents/{incident_id}/acknowledge',
  handler: 'functions/incidents/acknowledge-page.ts',
  access: 'public',
  tenant: 'found',
  tag: 'incidents',
  summary: 'The acknowledgement link opened in a browser: what the incident is, and a button that acknowledges it',
  description:
    'Opening the link changes nothing (mail scanners open links too). While the link can acknowledge, the page shows the incident (title, severity, location, when it was raised) and a button that posts the acknowledgement; a used, expired or wrong link shows a page that says so. Always 200 with HTML.',
  request: { path: incidentPath, query: acknowledgeQuery },
  response: { status: 200, description: 'An HTML page.', contentType: 'text/html' },
  errors: [429],
  rateLimit: { name: 'acknowledge', perMinute: 30 },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const feedListRoute = {
  id: 'feed.list',
  method: 'GET',
  path: '/api/v1/feed',
  handler: 'functions/incidents/feed.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'feed',
  summary: "The tenant's recent activity, newest first",
  request: { query: feedQuery },
  response: { status: 200, description: 'Feed entries.', schema: { type: 'array', items: feedEntry } },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const replayTimelineRoute = {
  id: 'replay.timeline',
  method: 'GET',
  path: '/api/v1/replay/{incident_id}',
  handler: 'functions/incidents/replay.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'replay',
  summary: "An incident's whole timeline: every transition, note, assignment, escalation and acknowledgement, in order",
  request: { path: incidentPath },
  response: { status: 200, description: 'The timeline.', schema: replayTimeline },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const replaySnapshotRoute = {
  id: 'replay.snapshot',
  method: 'GET',
  path: '/api/v1/replay/{incident_id}/snapshot',
  handler: 'functions/incidents/snapshot.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'replay',
  summary: 'The incident as it stood at a moment',
  request: { path: incidentPath, query: snapshotQuery },
  response: { status: 200, description: 'The state at that time.', schema: incidentSnapshot },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const incidentsRoutes: readonly RouteDef[] = [
  incidentsCreateRoute,
  incidentsVoiceRoute,
  incidentsVoiceUploadUrlRoute,
  incidentsCompleteRoute,
  incidentsFinalizeRoute,
  incidentsPublicRoute,
  incidentsPublicKeyRoute,
  incidentsListRoute,
  incidentsGetRoute,
  incidentsRespondRoute,
  incidentsEscalateRoute,
  incidentsAcknowledgeRoute,
  incidentsAcknowledgePageRoute,
  feedListRoute,
  replayTimelineRoute,
  replaySnapshotRoute,
];
