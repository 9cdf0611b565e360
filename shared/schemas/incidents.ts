/** Incidents: their lifecycle, response, escalation, feed and replay. */
import { AUDIO_CONTENT_TYPES, AUDIO_FORMATS } from '../vocabulary/audio.js';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, RESOLUTIONS } from '../vocabulary/incidents.js';
import { linkTokenQuery, MAX_OFFSET, nextOffset, nullable, pagingProperties, timestamp, uuid } from './common.js';
import { latLon } from './geo.js';
import type { JsonSchema } from './json-schema.js';

export const incidentStatus = {
  type: 'string',
  enum: INCIDENT_STATUSES,
  description:
    'draft -> confirmed -> acknowledged -> in_progress <-> on_hold -> resolved -> closed; cancelled from any state before resolved.',
} as const;
export const incidentSeverity = { type: 'string', enum: INCIDENT_SEVERITIES } as const;
const resolution = { type: 'string', enum: RESOLUTIONS, description: 'Why it ended, apart from its status.' } as const;
const title = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const text = (max: number) => ({ type: 'string', maxLength: max }) as const;

/** The longest description an incident keeps (characters). */
export const MAX_INCIDENT_DESCRIPTION = 5000;

const transition = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      from: nullable(incidentStatus),
      to: incidentStatus,
      at: timestamp,
      by: { type: 'string', description: 'A user id, `system` or `token` (an acknowledgement link).' },
      note: { type: 'string' },
    },
    required: ['from', 'to', 'at', 'by'],
  }) as const)();

export const incidentResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      incident_id: uuid,
      tenant_id: uuid,
      title: { type: 'string' },
      description: nullable(text(MAX_INCIDENT_DESCRIPTION)),
      type: nullable(text(100)),
      severity: incidentSeverity,
      status: incidentStatus,
      resolution: nullable(resolution),
      resolution_notes: nullable(text(5000)),
      source: {
        type: 'string',
        enum: ['manual', 'voice', 'public', 'event', 'workflow'],
        description:
          'How it was opened: by a person, a voice report, an anonymous public report, an event over the threshold, or a workflow step.',
      },
      environment_id: nullable(uuid),
      location: nullable(latLon),
      location_text: nullable(text(500)),
      occurred_at: nullable(timestamp),
      assignee_id: nullable(uuid),
      escalation_level: { type: 'integer', minimum: 0 },
      sla_due_at: {
        ...nullable(timestamp),
        description: "When acknowledgement is due: set on confirmation from the tenant's sla_minutes for the severity.",
      },
      sla_breached_at: {
        ...nullable(timestamp),
        description: 'The due time, once the incident was not acknowledged by then; null while in time.',
      },
      next_escalation_at: {
        ...nullable(timestamp),
        description:
          'When the incident escalates to the next level if nobody acknowledges it; null once acknowledged or at the top level.',
      },
      summary: nullable(text(5000)),
      event_ids: { type: 'array', items: uuid },
      zone_ids: {
        type: 'array',
        items: uuid,
        description:
          'Zones the incident is in: those its linked events matched, and those whose geofence contained its location when it was opened.',
      },
      voice: {
        type: ['object', 'null'],
        description:
          'For a voice report: the recording, its transcript, the fields read from it, and what is still missing.',
        properties: {
          audio_key: { type: ['string', 'null'] },
          transcript: { type: ['string', 'null'] },
          transcription_status: {
            type: 'string',
            enum: ['completed', 'pending', 'failed'],
            description:
              'pending while Amazon Transcribe still works on a long recording (the draft completes by itself); failed when the job failed.',
          },
          transcription_error: { type: ['string', 'null'], description: 'Why transcription failed.' },
          fields: { type: 'object' },
          missing_fields: { type: 'array', items: { type: 'string' } },
          follow_up_questions: { type: 'array', items: { type: 'string' } },
          unsure_words: {
            type: 'array',
            items: { type: 'string' },
            description: 'Words the recogniser was unsure of.',
          },
          doubts: {
            type: 'array',
            description:
              'Words heard that set no field: unsure ones, or one ambiguous word alone ("fire" can be a fire exit). Their fields are left for the follow-up questions, which name the word.',
            items: {
              type: 'object',
              properties: { field: { type: 'string', enum: ['type', 'severity'] }, word: { type: 'string' } },
              required: ['field', 'word'],
            },
          },
        },
      },
      transitions: { type: 'array', items: transition },
      time_to_acknowledge_seconds: { type: ['integer', 'null'] },
      time_to_resolve_seconds: { type: ['integer', 'null'] },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: [
      'incident_id',
      'tenant_id',
      'title',
      'severity',
      'status',
      'resolution',
      'source',
      'escalation_level',
      'transitions',
      'event_ids',
      'created_at',
      'updated_at',
    ],
  }) as const satisfies JsonSchema)();

export const incidentCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      title,
      description: text(5000),
      type: text(100),
      severity: { ...incidentSeverity, default: 'medium' },
      environment_id: uuid,
      location: latLon,
      location_text: text(500),
      occurred_at: timestamp,
      status: {
        type: 'string',
        enum: ['draft', 'confirmed'],
        default: 'confirmed',
        description: 'Open as a draft to complete later, or confirmed at once.',
      },
      event_ids: {
        type: 'array',
        items: uuid,
        maxItems: 50,
        uniqueItems: true,
        description:
          'Events of your tenant this incident is about: each is linked both ways (its `incident_id` names the new incident). 404 for an unknown event, 409 for one that belongs to another incident already.',
      },
    },
    required: ['title'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentRespond = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'At least one of: a status change, an assignee, a resolution with notes, a note.',
    properties: {
      status: incidentStatus,
      assignee_id: nullable(uuid),
      resolution,
      resolution_notes: text(5000),
      note: text(2000),
    },
    minProperties: 1,
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentEscalate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { reason: text(2000) },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentPath = {
  type: 'object',
  properties: { incident_id: uuid },
  required: ['incident_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const acknowledgeQuery = /* @__PURE__ */ linkTokenQuery('acknowledgement');

export const INCIDENT_SORT_FIELDS = ['created_at', 'updated_at', 'severity', 'status', 'escalation_level'] as const;

export const incidentListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...pagingProperties,
      sort_by: { type: 'string', enum: INCIDENT_SORT_FIELDS, default: 'created_at' },
      sort_order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      status: incidentStatus,
      severity: incidentSeverity,
      environment_id: { ...uuid, description: "Incidents of this environment (404 when it is not your tenant's)." },
      zone_id: { ...uuid, description: "Incidents in this zone (see `zone_ids`; 404 when it is not your tenant's)." },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentList = {
  type: 'object',
  properties: {
    items: { type: 'array', items: incidentResponse },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    next_offset: nextOffset,
  },
  required: ['items', 'total', 'limit', 'offset', 'next_offset'],
} as const satisfies JsonSchema;

export const feedQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
    offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const feedEntry = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      entry_id: uuid,
      at: timestamp,
      kind: { type: 'string', description: 'What happened, e.g. incident.created, incident.acknowledged.' },
      incident_id: uuid,
      title: { type: 'string' },
      severity: incidentSeverity,
      status: incidentStatus,
      by: { type: 'string' },
    },
    required: ['entry_id', 'at', 'kind', 'incident_id', 'title', 'severity', 'status', 'by'],
  }) as const satisfies JsonSchema)();

export const replayTimeline = {
  type: 'object',
  properties: {
    incident_id: uuid,
    timeline: {
      type: 'array',
      items: {
        type: 'object',
        properties: { at: timestamp, kind: { type: 'string' }, by: { type: 'string' }, detail: { type: 'object' } },
        required: ['at', 'kind', 'by', 'detail'],
      },
    },
  },
  required: ['incident_id', 'timeline'],
} as const satisfies JsonSchema;

export const snapshotQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { at: { ...timestamp, description: 'The moment to show; defaults to now.' } },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentSnapshot = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      incident_id: uuid,
      at: timestamp,
      status: incidentStatus,
      escalation_level: { type: 'integer' },
      assignee_id: nullable(uuid),
      notes: { type: 'array', items: { type: 'object' } },
    },
    required: ['incident_id', 'at', 'status', 'escalation_level', 'assignee_id', 'notes'],
  }) as const satisfies JsonSchema)();

export const publicIncidentCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      report_key: {
        type: 'string',
        minLength: 10,
        maxLength: 100,
        description:
          'The public reporting key the organisation publishes (`public_report_key` of `POST /api/v1/incidents/public-key`).',
      },
      public_report_key: {
        type: 'string',
        minLength: 10,
        maxLength: 100,
        description: 'The same key under the name it is shown with: send one of the two.',
      },
      title,
      description: { type: 'string', minLength: 1, maxLength: 5000 },
      location: latLon,
      location_text: text(500),
      occurred_at: timestamp,
      contact: { ...text(200), description: 'How to reach you, if you wish; kept with the report.' },
    },
    required: ['title', 'description'],
    oneOf: [
      { properties: { report_key: { type: 'string' } }, required: ['report_key'] },
      { properties: { public_report_key: { type: 'string' } }, required: ['public_report_key'] },
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const publicReportKeyResponse = {
  type: 'object',
  properties: {
    public_report_key: {
      type: 'string',
      description:
        'Publish it (on your website, in an app): anonymous reports send it as `report_key` (or under this name). Shown once; rotating replaces it.',
    },
    created_at: timestamp,
  },
  required: ['public_report_key', 'created_at'],
} as const satisfies JsonSchema;

/**
 * Largest recording through an upload URL. Far below Amazon Transcribe's own 2 GB / 4 h: a spoken
 * report lasts minutes, and 100 MB still holds about 10 min of CD-quality stereo WAV, 55 min of
 * 16 kHz mono WAV or hours of compressed audio. It bounds what one request can make us store and
 * transcribe (Transcribe bills by the second), and what the offline recogniser reads into memory.
 */
export const MAX_VOICE_UPLOAD_BYTES = 100 * 1024 * 1024;

export const voiceUploadUrlRequest = {
  type: 'object',
  properties: {
    format: {
      type: 'string',
      enum: AUDIO_FORMATS,
      description: "The recording's container; the upload key ends in it.",
    },
    size_bytes: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_VOICE_UPLOAD_BYTES,
      description: 'The exact length of the recording: the URL takes no other.',
    },
  },
  required: ['format', 'size_bytes'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const voiceUploadUrlResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      upload_key: {
        type: 'string',
        description:
          'Where the recording goes, under tenants/<your tenant>/audio/; send it to POST /api/v1/incidents/voice once uploaded.',
      },
      upload_url: { type: 'string', description: 'PUT the recording here, with the headers given, before expires_at.' },
      method: { type: 'string', enum: ['PUT'] },
      headers: {
        type: 'object',
        properties: {
          'Content-Length': { type: 'string', description: 'size_bytes: the length is signed.' },
          'Content-Type': { type: 'string', enum: Object.values(AUDIO_CONTENT_TYPES) },
        },
        required: ['Content-Length', 'Content-Type'],
        additionalProperties: { type: 'string' },
      },
      expires_at: timestamp,
      max_bytes: { type: 'integer', description: 'The largest recording an upload URL is given for.' },
    },
    required: ['upload_key', 'upload_url', 'method', 'headers', 'expires_at', 'max_bytes'],
  }) as const satisfies JsonSchema)();

export const voiceIncidentCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      'A recording (base64, for short clips; or the key of an upload under your tenant), or a transcript made on the device.',
    properties: {
      audio_base64: {
        type: 'string',
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The recording, base64; at most about 700 KB of audio.',
      },
      upload_key: {
        type: 'string',
        minLength: 1,
        maxLength: 500,
        description: `A key under tenants/<your tenant>/audio/: the upload_key of POST /api/v1/incidents/voice/upload-url once the recording is PUT there. At most ${MAX_VOICE_UPLOAD_BYTES} bytes (413 past it).`,
      },
      // No schema default: a default would fill in wav before an upload key's extension is read.
      format: {
        type: 'string',
        enum: AUDIO_FORMATS,
        description:
          "The recording's container. Unless given: an upload key's extension when it is one of these, otherwise wav.",
      },
      transcript: {
        type: 'string',
        minLength: 1,
        maxLength: 20000,
        description: 'A transcript made on the device: transcription is skipped.',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentComplete = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      answers: {
        type: 'object',
        description: 'Answers to the follow-up questions, by field.',
        properties: {
          title: title,
          type: text(100),
          severity: incidentSeverity,
          location_text: text(500),
          occurred_at_text: text(200),
          description: text(5000),
        },
        minProperties: 1,
        additionalProperties: false,
      },
    },
    required: ['answers'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const incidentFinalize = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { note: text(2000) },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

/** What an anonymous reporter gets back: the report's own id and state, no internal ids. */
export const publicIncidentReceipt = {
  type: 'object',
  properties: { incident_id: uuid, title: { type: 'string' }, status: incidentStatus, created_at: timestamp },
  required: ['incident_id', 'title', 'status', 'created_at'],
} as const satisfies JsonSchema;
