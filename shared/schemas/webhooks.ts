/**
 * What a webhook subscription may choose: the messages the service puts on its event bus
 * (docs/events.md), each with the schema of its `data`. `GET /api/v1/webhooks/events` lists the
 * types; the OpenAPI document describes each delivery (its `webhooks` section).
 */
import { INCIDENT_STATUSES } from '../vocabulary/incidents.js';
import { timestamp } from './common.js';
import { EVENT_TYPES, eventResponse } from './events.js';
import { incidentResponse } from './incidents.js';
import type { JsonSchema } from './json-schema.js';

export interface WebhookEventKind {
  type: string;
  /** When it is sent. */
  description: string;
  /** The schema of the delivery's `data`. */
  data: JsonSchema;
}

// Titled, so the OpenAPI document names them once rather than repeating them for every type.
const eventData = { ...eventResponse, title: 'WebhookEventData' } as const satisfies JsonSchema;
const incidentData = { ...incidentResponse, title: 'WebhookIncidentData' } as const satisfies JsonSchema;

const incident = (type: string, description: string): WebhookEventKind => ({ type, description, data: incidentData });

export const WEBHOOK_EVENTS: readonly WebhookEventKind[] = [
  ...EVENT_TYPES.map((type) => ({
    type,
    description: `An event of type \`${type}\` was stored (through \`POST /api/v1/events\`, a batch, or a manual report). \`data\` is the event as \`GET /api/v1/events/{id}\` shows it.`,
    data: eventData,
  })),
  incident('incident.created', 'An incident was opened: by an operator, an anonymous report, a voice report or an event over the tenant\'s threshold.'),
  ...INCIDENT_STATUSES.filter((s) => s !== 'draft').map((status) =>
    incident(`incident.${status}`, `An incident's status changed to \`${status}\`.`),
  ),
  incident('incident.updated', 'An assignee, a resolution or a note changed without a status change, or an event was linked to it or unlinked from it.'),
  incident('incident.transcribed', 'A voice draft whose transcription outlived the request got its transcript and fields, or learned that transcription failed.'),
  incident('incident.escalated', 'An incident went up one escalation level, by an operator or by the SLA scheduler.'),
  incident('incident.sla_breached', 'Nobody acknowledged a confirmed incident by its `sla_due_at`; sent once per incident.'),
];

export const WEBHOOK_EVENT_TYPES: readonly string[] = WEBHOOK_EVENTS.map((e) => e.type);

/** The body of a delivery of `kind`: `{type, timestamp, data}`, as the contract fixes it. */
export function webhookBody(kind: WebhookEventKind): JsonSchema {
  return {
    type: 'object',
    properties: {
      type: { type: 'string', const: kind.type },
      timestamp: { ...timestamp, description: 'When the change happened.' },
      data: kind.data,
    },
    required: ['type', 'timestamp', 'data'],
  };
}

export const webhookEventTypes = {
  type: 'array',
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
} as const satisfies JsonSchema;
