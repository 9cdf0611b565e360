/** Audit log entries and their listing (AuditLogResponse, AuditLogListResponse). */
import { MAX_OFFSET, nextOffset, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';

export const auditLogResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'AuditLogResponse: one change, who made it, when, from where, and what changed.',
    properties: {
      log_id: { ...uuid, description: 'A UUIDv7: entries sort by it in time order.' },
      tenant_id: uuid,
      action: { type: 'string', description: 'Dotted name such as `incident.created`.' },
      resource_type: { type: 'string', description: 'Such as `incident`.' },
      resource_id: { type: 'string' },
      user_id: {
        ...uuid,
        type: ['string', 'null'],
        description:
          'The user who acted (directly or with one of their API keys); null for the service itself or an anonymous caller.',
      },
      actor_type: {
        type: 'string',
        enum: ['user', 'api_key', 'system', 'anonymous', 'workflow'],
        description:
          "A person with a bearer token, a program with an API key, the service itself (workers, schedules), a caller without a credential, or one of the tenant's workflows (its id and run in `changes.workflow`).",
      },
      api_key_id: { type: ['string', 'null'], description: 'The API key used, when `actor_type` is `api_key`.' },
      tool: {
        type: 'string',
        description:
          'The agent tool (MCP, docs/mcp.md) whose call made the request, as its `X-Gatehouse-Tool` header named it; absent for other requests.',
      },
      timestamp,
      request_id: {
        type: 'string',
        description: 'The request (or the worker run) that made the change: search the logs for it.',
      },
      source_ip: {
        type: 'string',
        description: "The caller's address; `anonymous` for an anonymous reporter, whose address is withheld.",
      },
      changes: {
        type: 'object',
        description:
          'What changed: `field: {from, to}` for an update, the fields set for a creation. Secrets never appear.',
        additionalProperties: true,
      },
    },
    required: [
      'log_id',
      'tenant_id',
      'action',
      'resource_type',
      'resource_id',
      'user_id',
      'actor_type',
      'api_key_id',
      'timestamp',
      'request_id',
      'source_ip',
    ],
  }) as const satisfies JsonSchema)();

export const auditLogList = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'AuditLogListResponse: a page of entries, newest first.',
    properties: {
      items: { type: 'array', items: auditLogResponse },
      total: { type: 'integer', description: 'Entries matching the filters in all.' },
      limit: { type: 'integer' },
      skip: { type: 'integer' },
      next_offset: {
        ...nextOffset,
        description:
          'Where the next page starts (send it as `skip`, or its alias `offset`), or null when this page is the last.',
      },
    },
    required: ['items', 'total', 'limit', 'skip', 'next_offset'],
  }) as const satisfies JsonSchema)();

const name = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+(\\.[a-z0-9_]+)*$' } as const;

export const auditLogQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      action: { ...name, description: 'Only this action, e.g. `incident.created`.' },
      resource_type: { ...name, description: 'Only changes to this kind of resource, e.g. `incident`.' },
      user_id: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description: "Only this user's changes (theirs with a token or with one of their API keys).",
      },
      start_date: { ...timestamp, description: 'Entries at or after this time.' },
      end_date: { ...timestamp, description: 'Entries at or before this time.' },
      skip: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_OFFSET,
        default: 0,
        description: 'Entries to skip, at most 10,000 (narrow the dates to go deeper).',
      },
      offset: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_OFFSET,
        description: 'The same as `skip`, as every other list names it; giving both with different values is a 422.',
      },
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size.' },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const auditTenantPath = {
  type: 'object',
  properties: { tenant_id: uuid },
  required: ['tenant_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const auditEntryPath = {
  type: 'object',
  properties: { tenant_id: uuid, log_id: uuid },
  required: ['tenant_id', 'log_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const auditVerifyQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      from: { ...timestamp, description: 'From the hour holding this time. Default: 24 hours before `to`.' },
      to: {
        ...timestamp,
        description: 'To the hour holding this time, included. Default: now. At most 31 days after `from`.',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const hourStart = /* @__PURE__ */ (() => ({ ...timestamp, description: "The hour's start." }))();

export const auditVerification = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      "Two checks of the range. Each entry's seal (an HMAC made as it was written, under a key the table's writers cannot read): every entry that is not what was written is listed in `edited_entries`, whatever its age, the current hour's included. And the digests of the range's hours, recomputed from the entries in the table now and checked against each other. `first_mismatch`: the first of `entry_changed`, `entry_missing`, `entry_added` (with its `log_id`), `hour_changed` (an hour of more than 3,000 entries, checked as a whole), `digest_changed`, `chain_broken` or `digest_missing`, in time order. `valid` is true when neither check found anything.",
    properties: {
      valid: { type: 'boolean' },
      from: hourStart,
      to: hourStart,
      hours_checked: { type: 'integer', description: 'Hours of the range that have a digest.' },
      entries_checked: { type: 'integer' },
      first_mismatch: {
        type: ['object', 'null'],
        properties: {
          kind: {
            type: 'string',
            enum: [
              'entry_changed',
              'entry_missing',
              'entry_added',
              'hour_changed',
              'digest_changed',
              'chain_broken',
              'digest_missing',
            ],
          },
          hour_start: hourStart,
          log_id: uuid,
        },
        required: ['kind', 'hour_start'],
      },
      digested_until: {
        ...timestamp,
        type: ['string', 'null'],
        description:
          "The last hour of the range with a digest: hours after it are not digested yet (an hour is, within 20 minutes of its end), so their digests are not checked (their entries' seals are).",
      },
      seals_checked: { type: 'integer', description: 'Entries whose seal was checked.' },
      entries_unsealed: {
        type: 'integer',
        description:
          'Entries written before entries were sealed: their seal cannot vouch for them (unverifiable by MAC, not edited); the digest of their hour still does.',
      },
      entries_edited: { type: 'integer', description: 'Entries found edited by their seal; the first 100 are listed.' },
      edited_entries: {
        type: 'array',
        description: 'Each entry that is not what was written, oldest first (at most 100).',
        items: {
          type: 'object',
          properties: {
            log_id: uuid,
            hour_start: hourStart,
            kind: {
              type: 'string',
              enum: ['fields_changed', 'seal_changed', 'seal_missing', 'entry_removed'],
              description:
                '`fields_changed`: the seal is intact and `fields` no longer match it; `seal_changed`: the seal itself was altered; `seal_missing`: no seal, though newer than a sealed entry (it was removed); `entry_removed`: gone, though an entry written in the same transaction names it.',
            },
            fields: {
              type: 'array',
              items: { type: 'string' },
              description: 'The fields that no longer match (`key`: the item was moved); empty for the other kinds.',
            },
          },
          required: ['log_id', 'hour_start', 'kind', 'fields'],
        },
      },
    },
    required: [
      'valid',
      'from',
      'to',
      'hours_checked',
      'entries_checked',
      'first_mismatch',
      'digested_until',
      'seals_checked',
      'entries_unsealed',
      'entries_edited',
      'edited_entries',
    ],
  }) as const satisfies JsonSchema)();

export const auditExportQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      from: { ...timestamp, description: 'Entries at or after this time.' },
      to: { ...timestamp, description: 'Entries at or before this time. Default: now. At most 31 days after `from`.' },
    },
    required: ['from'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const auditExportHeaders = {
  type: 'object',
  properties: {
    accept: { type: 'string', maxLength: 1000, description: '`text/csv` for CSV; anything else (or none) for NDJSON.' },
  },
} as const satisfies JsonSchema;
