/**
 * Threat libraries: a tenant's named sets of threat definitions, by vertical (maritime, security,
 * infrastructure, defense, or the tenant's own). An active definition of an active library is
 * matched on every event ingested (shared/domain/threat-libraries/matching.ts): a match names it in the
 * event's `matched_signatures` and adds its weight to the event's threat score.
 */
import { EVENT_TYPES } from '../vocabulary/event-types.js';
import { nullable, pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { ZONE_TYPES } from './zones.js';
import { INCIDENT_SEVERITIES } from '../vocabulary/incidents.js';

/** The verticals the seed fills; a library may name another (lower case, digits, dashes). */
export const THREAT_VERTICALS = ['maritime', 'security', 'infrastructure', 'defense'] as const;

/** Definitions per library at most: the tenant's active ones are read, all of them, when an event is matched. */
export const MAX_DEFINITIONS_PER_LIBRARY = 50;
/** Libraries per tenant at most. */
export const MAX_LIBRARIES_PER_TENANT = 20;
/**
 * The largest library with its definitions, as JSON: within DynamoDB's 400 KB item, and small
 * enough that a page of all 20 (about 5 MB) stays under the 6 MB a Lambda function may answer.
 */
export const MAX_LIBRARY_BYTES = 250 * 1024;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const description = { type: 'string', maxLength: 2000 } as const;
const vertical = /* @__PURE__ */ (() =>
  ({
    type: 'string',
    pattern: '^[a-z][a-z0-9-]{1,39}$',
    description: `The field the library serves: ${THREAT_VERTICALS.join(', ')} (the seeded ones), or another name of lower-case letters, digits and dashes.`,
  }) as const)();
const hhmm = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } as const;

/** What an event must be and carry for a definition to match it: every condition given must hold. */
export const threatMatch = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Every condition given must hold for an event to match.',
    properties: {
      event_types: {
        type: 'array',
        items: { type: 'string', enum: EVENT_TYPES },
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: 'The event is one of these types.',
      },
      zone_types: {
        type: 'array',
        items: { type: 'string', enum: ZONE_TYPES },
        minItems: 1,
        maxItems: ZONE_TYPES.length,
        uniqueItems: true,
        description: 'The event falls in an active zone of one of these types.',
      },
      min_security_level: {
        type: 'integer',
        minimum: 1,
        maximum: 5,
        description: 'The event falls in an active zone of at least this security level.',
      },
      hours: {
        type: 'object',
        description:
          "The event occurred between these times of day in the tenant's time zone (an end before the start spans midnight).",
        properties: { start: hhmm, end: hhmm },
        required: ['start', 'end'],
        additionalProperties: false,
      },
      keywords: {
        type: 'array',
        items: { type: 'string', minLength: 2, maxLength: 100 },
        minItems: 1,
        maxItems: 50,
        description:
          "Any of these words or phrases appears in the event's description or a text value of its payload (case-insensitive, whole words).",
      },
      payload: {
        type: 'array',
        minItems: 1,
        maxItems: 10,
        description: 'Thresholds on numbers of the payload: each must hold (a missing or non-numeric field does not).',
        items: {
          type: 'object',
          properties: {
            field: {
              type: 'string',
              pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+){0,3}$',
              description: 'A payload field, dotted for nested ones: `speed_knots`, `signal.amplitude_db`.',
            },
            op: { type: 'string', enum: ['gt', 'gte', 'lt', 'lte', 'eq'] },
            value: { type: 'number' },
          },
          required: ['field', 'op', 'value'],
          additionalProperties: false,
        },
      },
      repeat: {
        type: 'object',
        description:
          'At least `count` events of these types in the same zone in the last hour, this one included (counted per zone: an event in no zone does not match).',
        properties: { count: { type: 'integer', minimum: 2, maximum: 10_000 } },
        required: ['count'],
        additionalProperties: false,
      },
    },
    required: ['event_types'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

/** Indicators of compromise or interest: the event matches when its payload carries one. */
export const threatIndicators = {
  type: 'object',
  description:
    'The event must carry one of these in its payload (any string or number up to three levels deep): IPv4 or IPv6 addresses as written, domains case-insensitively (a subdomain matches its domain), MMSIs as nine digits.',
  properties: {
    ips: {
      type: 'array',
      items: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
      minItems: 1,
      maxItems: 500,
      uniqueItems: true,
    },
    domains: {
      type: 'array',
      items: { type: 'string', format: 'hostname', maxLength: 253 },
      minItems: 1,
      maxItems: 500,
      uniqueItems: true,
    },
    mmsis: {
      type: 'array',
      items: { type: 'string', pattern: '^[0-9]{9}$' },
      minItems: 1,
      maxItems: 500,
      uniqueItems: true,
    },
  },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const threatDefinitionInput = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      definition_id: {
        type: 'string',
        pattern: '^[a-z0-9][a-z0-9._-]{0,63}$',
        description:
          'Stable id within the library (default: made from the name). The seed skips a definition whose id exists.',
      },
      name,
      description,
      severity: { type: 'string', enum: INCIDENT_SEVERITIES },
      weight: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: "What a match adds to the event's threat score (0..1; the score is capped at 1).",
      },
      active: { type: 'boolean', default: true },
      match: threatMatch,
      indicators: {
        ...nullable(threatIndicators),
        description: 'Null or absent: none. ' + threatIndicators.description,
      },
    },
    required: ['name', 'severity', 'weight', 'match'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const definitions = { type: 'array', items: threatDefinitionInput, maxItems: MAX_DEFINITIONS_PER_LIBRARY } as const;

export const threatLibraryCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      name,
      description,
      vertical,
      active: { type: 'boolean', default: true },
      definitions: { ...definitions, default: [] },
    },
    required: ['name', 'vertical'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const threatLibraryUpdate = {
  type: 'object',
  description: 'Only the fields given change; `definitions` replaces the whole list.',
  properties: { name, description, vertical, active: { type: 'boolean' }, definitions },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const threatDefinitionResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      definition_id: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      severity: { type: 'string', enum: INCIDENT_SEVERITIES },
      weight: { type: 'number' },
      active: { type: 'boolean' },
      match: threatMatch,
      indicators: nullable({ ...threatIndicators, type: 'object' }),
    },
    required: ['definition_id', 'name', 'description', 'severity', 'weight', 'active', 'match', 'indicators'],
  }) as const satisfies JsonSchema)();

const libraryFields = {
  library_id: uuid,
  tenant_id: uuid,
  name: { type: 'string' },
  description: { type: 'string' },
  vertical: { type: 'string' },
  active: { type: 'boolean' },
  seed_key: {
    type: ['string', 'null'],
    description:
      'Which library of `POST /api/v1/threat-libraries/seed` this is (`gatehouse.<vertical>`), found by it on every later seed; null for your own.',
  },
  definitions: { type: 'array', items: threatDefinitionResponse },
  created_at: timestamp,
  updated_at: timestamp,
} as const;

export const threatLibraryResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: libraryFields,
    required: Object.keys(libraryFields),
  }) as const satisfies JsonSchema)();

export const threatLibraryPath = {
  type: 'object',
  properties: { library_id: uuid },
  required: ['library_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const threatLibraryListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose libraries to list: your own (only SUPER_ADMIN may name another).',
      },
      vertical: { type: 'string', maxLength: 40 },
      active_only: { type: 'boolean', default: false },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const threatLibraryScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

/** What `POST /api/v1/threat-libraries/seed` did: what it created, and what it found already there. */
export const threatLibrarySeedResult = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      created: {
        type: 'object',
        description:
          'What this call created: libraries, and definitions (those of new libraries and those added to existing ones).',
        properties: { libraries: { type: 'integer', minimum: 0 }, definitions: { type: 'integer', minimum: 0 } },
        required: ['libraries', 'definitions'],
      },
      skipped: {
        type: 'object',
        description:
          'What was there already and was left as it is: the ids of seeded libraries that existed, and the `definition_id`s of the seed found in them.',
        properties: {
          libraries: { type: 'array', items: uuid },
          definitions: { type: 'array', items: { type: 'string' } },
        },
        required: ['libraries', 'definitions'],
      },
      libraries: {
        type: 'array',
        items: uuid,
        description: 'The ids of the seeded libraries, one per vertical, whether created now or before.',
      },
      playbooks: {
        type: 'object',
        description:
          'The seeded workflows (docs/workflows.md): those created now, and those found by their `seed_key`.',
        properties: { created: { type: 'array', items: uuid }, skipped: { type: 'array', items: uuid } },
        required: ['created', 'skipped'],
      },
    },
    required: ['created', 'skipped', 'libraries', 'playbooks'],
  }) as const satisfies JsonSchema)();
