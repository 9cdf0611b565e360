/**
 * What a webhook subscription may choose: the messages the service puts on its event bus
 * (docs/events.md), each with the schema of its `data`. `GET /api/v1/webhooks/events` lists the
 * types; the OpenAPI document describes each delivery (its `webhooks` section).
 */
import { INCIDENT_STATUSES } from '../vocabulary/incidents.js';
import { nextOffset, timestamp, uuid } from './common.js';
import { SEVERITIES } from './tenants.js';
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
const eventData = /* @__PURE__ */ (() =>
  ({ ...eventResponse, title: 'WebhookEventData' }) as const satisfies JsonSchema)();
const incidentData = /* @__PURE__ */ (() =>
  ({ ...incidentResponse, title: 'WebhookIncidentData' }) as const satisfies JsonSchema)();

const incident = (type: string, description: string): WebhookEventKind => ({ type, description, data: incidentData });

export const WEBHOOK_EVENTS: readonly WebhookEventKind[] = /* @__PURE__ */ (() => [
  ...EVENT_TYPES.map((type) => ({
    type,
    description: `An event of type \`${type}\` was stored (through \`POST /api/v1/events\`, a batch, or a manual report). \`data\` is the event as \`GET /api/v1/events/{id}\` shows it.`,
    data: eventData,
  })),
  incident(
    'incident.created',
    "An incident was opened: by an operator, an anonymous report, a voice report or an event over the tenant's threshold.",
  ),
  ...INCIDENT_STATUSES.filter((s) => s !== 'draft').map((status) =>
    incident(`incident.${status}`, `An incident's status changed to \`${status}\`.`),
  ),
  incident(
    'incident.updated',
    'An assignee, a resolution or a note changed without a status change, or an event was linked to it or unlinked from it.',
  ),
  incident(
    'incident.transcribed',
    'A voice draft whose transcription outlived the request got its transcript and fields, or learned that transcription failed.',
  ),
  incident('incident.escalated', 'An incident went up one escalation level, by an operator or by the SLA scheduler.'),
  incident(
    'incident.sla_breached',
    'Nobody acknowledged a confirmed incident by its `sla_due_at`; sent once per incident.',
  ),
])();

export const WEBHOOK_EVENT_TYPES: readonly string[] = /* @__PURE__ */ (() => WEBHOOK_EVENTS.map((e) => e.type))();

/**
 * What a workflow's `send_webhook` step delivers (docs/workflows.md): not a type to subscribe to,
 * since the step names the subscription it goes to, whatever types that one chose.
 */
export const WORKFLOW_ACTION_DELIVERY: WebhookEventKind = /* @__PURE__ */ (() => ({
  type: 'workflow.action',
  description:
    "A workflow's `send_webhook` step named this subscription (it is sent whatever types the subscription chose). `data` names the workflow, its run and step, the step's message, and the run's incident and event.",
  data: {
    type: 'object',
    title: 'WebhookWorkflowActionData',
    properties: {
      workflow_id: uuid,
      workflow_name: { type: 'string' },
      run_id: uuid,
      step: { type: 'integer', description: 'The step of the workflow that sent it, from 0.' },
      message: { type: 'string' },
      incident_id: { type: ['string', 'null'], format: 'uuid' },
      event_id: { type: ['string', 'null'], format: 'uuid' },
    },
    required: ['workflow_id', 'workflow_name', 'run_id', 'step', 'message', 'incident_id', 'event_id'],
  },
}))();

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

export const webhookEventTypes = /* @__PURE__ */ (() =>
  ({
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  }) as const satisfies JsonSchema)();

const url = {
  type: 'string',
  format: 'uri',
  minLength: 8,
  maxLength: 2048,
  description:
    'Where deliveries are POSTed: https, to a public address (plain http only to a loopback receiver where the deployment allows it). Its host is resolved when saved and when called; private, loopback, link-local (169.254.169.254), unique-local, multicast and unspecified addresses are refused.',
} as const;

const eventTypes = /* @__PURE__ */ (() =>
  ({
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, '*'] },
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    description: 'The types to deliver (`GET /api/v1/webhooks/events`), or `["*"]` for all of them.',
  }) as const)();

const filters = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Deliver only what also matches these.',
    properties: {
      environment_id: {
        ...uuid,
        type: ['string', 'null'],
        description: 'Only events and incidents of this environment.',
      },
      min_severity: {
        type: ['string', 'null'],
        enum: [...SEVERITIES, null],
        description: 'Only incidents (and events a reporter rated) of at least this severity.',
      },
    },
    additionalProperties: false,
  }) as const)();

const description = { type: 'string', minLength: 1, maxLength: 500 } as const;

export const webhookCreate = {
  type: 'object',
  properties: { url, event_types: eventTypes, filters, enabled: { type: 'boolean', default: true }, description },
  required: ['url', 'event_types'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const webhookUpdate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Only the fields given change. Turning a subscription on again clears why it was turned off.',
    properties: {
      url,
      event_types: eventTypes,
      filters,
      enabled: { type: 'boolean' },
      description: { ...description, type: ['string', 'null'] },
    },
    minProperties: 1,
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const webhookFields = /* @__PURE__ */ (() =>
  ({
    webhook_id: uuid,
    tenant_id: uuid,
    url: {
      type: 'string',
      description:
        'The receiver, its credentials (user name and password, a query parameter named like a credential) `REDACTED`; sent back as shown in a change, a `REDACTED` keeps the credential kept at its place (same host only).',
    },
    event_types: { type: 'array', items: { type: 'string' } },
    filters: {
      type: 'object',
      properties: { environment_id: { ...uuid, type: ['string', 'null'] }, min_severity: { type: ['string', 'null'] } },
      required: ['environment_id', 'min_severity'],
    },
    enabled: { type: 'boolean' },
    description: { type: ['string', 'null'] },
    disabled_reason: {
      type: ['string', 'null'],
      enum: ['gone', 'failing', null],
      description:
        "Why the service turned it off, or null: `gone`, the receiver answered 410 Gone; `failing`, every delivery failed for 5 days. Its owner is told (`webhook.disabled` on the bus, and email to the tenant's notification recipients). Turning it on again clears this.",
    },
    failing_since: {
      ...timestamp,
      type: ['string', 'null'],
      description:
        'Since when every attempt has failed (the first failure after the last success), or null. After 5 days of this the subscription is turned off.',
    },
    previous_secret_expires_at: {
      ...timestamp,
      type: ['string', 'null'],
      description: 'After a rotation: until when deliveries also carry a signature with the secret before it.',
    },
    created_at: timestamp,
    updated_at: timestamp,
  }) as const)();

export const webhookResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: webhookFields,
    required: Object.keys(webhookFields),
  }) as const satisfies JsonSchema)();

export const webhookWithSecret = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...webhookFields,
      secret: {
        type: 'string',
        pattern: '^whsec_',
        description: 'The signing secret (Standard Webhooks), shown this once: keep it to verify deliveries.',
      },
    },
    required: [...Object.keys(webhookFields), 'secret'],
  }) as const satisfies JsonSchema)();

export const webhookList = {
  type: 'object',
  description: 'WebhookSubscriptionListResponse.',
  properties: {
    items: { type: 'array', items: webhookResponse },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    next_offset: nextOffset,
  },
  required: ['items', 'total', 'limit', 'offset', 'next_offset'],
} as const satisfies JsonSchema;

export const webhookPath = {
  type: 'object',
  properties: { webhook_id: uuid },
  required: ['webhook_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const webhookTestResult = {
  type: 'object',
  properties: {
    delivered: { type: 'boolean', description: 'The receiver answered 2xx.' },
    status_code: {
      type: ['integer', 'null'],
      description: "The receiver's status; null when it gave none (refused, unreachable, timed out).",
    },
    latency_ms: { type: 'integer' },
    error: { type: ['string', 'null'] },
    message_id: { type: 'string', description: 'The `webhook-id` of the ping.' },
    tested_at: timestamp,
  },
  required: ['delivered', 'status_code', 'latency_ms', 'error', 'message_id', 'tested_at'],
} as const satisfies JsonSchema;

const attempt = {
  type: 'object',
  properties: {
    attempt: { type: 'integer', minimum: 1, description: '1 for the first.' },
    at: timestamp,
    status_code: {
      type: ['integer', 'null'],
      description: "The receiver's status; null when it gave none (refused address, unreachable, timed out).",
    },
    latency_ms: { type: 'integer' },
    error: { type: ['string', 'null'] },
    replay: { type: 'boolean', description: 'Made by a replay, outside the retry schedule.' },
  },
  required: ['attempt', 'at', 'status_code', 'latency_ms', 'error', 'replay'],
} as const satisfies JsonSchema;

export const deliveryResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'A message delivered (or being delivered) to a subscription, with every attempt. Kept 30 days.',
    properties: {
      delivery_id: {
        ...uuid,
        description: 'Sent as `webhook-id`: the same on every attempt and replay, so receivers can deduplicate on it.',
      },
      webhook_id: uuid,
      tenant_id: uuid,
      event_type: { type: 'string' },
      message_id: {
        type: 'string',
        description:
          "The bus message delivered: the event's `event_id`, or the change's `message_id` (docs/events.md).",
      },
      payload: { type: 'string', description: 'The body sent, exactly (`{type, timestamp, data}` as JSON).' },
      status: {
        type: 'string',
        enum: ['pending', 'delivered', 'failed'],
        description: '`pending` while attempts remain, `delivered` after a 2xx, `failed` for good.',
      },
      attempts: { type: 'array', items: attempt },
      next_attempt_at: {
        ...timestamp,
        type: ['string', 'null'],
        description: 'When the next attempt is due, while pending.',
      },
      failure_reason: {
        type: ['string', 'null'],
        enum: ['exhausted', 'gone', 'failing', 'subscription_disabled', 'subscription_deleted', 'replay_failed', null],
        description:
          'Why it failed for good: `exhausted`, the eight attempts of the schedule failed; `gone`, the receiver answered 410; `failing`, the subscription was turned off after 5 days of failures; `subscription_disabled` or `subscription_deleted` before the attempt; `replay_failed`, a replay (one attempt) failed.',
      },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: [
      'delivery_id',
      'webhook_id',
      'tenant_id',
      'event_type',
      'message_id',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'failure_reason',
      'created_at',
      'updated_at',
    ],
  }) as const satisfies JsonSchema)();

export const deliveryList = {
  type: 'object',
  description: 'A page of deliveries, newest first. Not counted: `next_offset` says where the next page starts.',
  properties: {
    items: { type: 'array', items: deliveryResponse },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    next_offset: nextOffset,
  },
  required: ['items', 'limit', 'offset', 'next_offset'],
} as const satisfies JsonSchema;

export const deliveryListQuery = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const deliveryPath = {
  type: 'object',
  properties: { webhook_id: uuid, delivery_id: uuid },
  required: ['webhook_id', 'delivery_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const replaySince = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      'Replays the failed deliveries whose messages are from `since` on (at most 30 days back, 1,000 a call).',
    properties: { since: { ...timestamp, description: 'From when (RFC 3339); not in the future.' } },
    required: ['since'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const replayResult = {
  type: 'object',
  properties: {
    replayed: { type: 'integer', description: 'Deliveries queued again.' },
    delivery_ids: { type: 'array', items: uuid },
    has_more: { type: 'boolean', description: 'More failed deliveries remain after the 1,000 replayed: call again.' },
  },
  required: ['replayed', 'delivery_ids', 'has_more'],
} as const satisfies JsonSchema;
