/** The seven-factor threat score (docs/threat-score.md), on `/api/v1` and `/v1`. */
import { timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { SCORE_SEVERITIES } from '../vocabulary/score-bands.js';
import { SCORE_CONTEXTS, SCORE_FACTORS, SCORE_TARGET_TYPES } from '../vocabulary/threat-score.js';

const scoreQueryProperties = {
  target: {
    type: 'string',
    minLength: 1,
    maxLength: 300,
    description:
      'What to score: an IPv4 or IPv6 address, a host name, an MMSI (9 digits), `lat,lon` in degrees, or a sensor id.',
  },
  target_type: { type: 'string', enum: SCORE_TARGET_TYPES, description: 'What `target` is.' },
  context: {
    type: 'string',
    enum: SCORE_CONTEXTS,
    default: 'security',
    description: 'Whose view to weigh the factors by (`security` unless given).',
  },
} as const;

export const threatScoreQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      ...scoreQueryProperties,
    },
    required: ['target', 'target_type'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const v1ThreatScoreQuery = {
  type: 'object',
  properties: scoreQueryProperties,
  required: ['target', 'target_type'],
  additionalProperties: false,
} as const satisfies JsonSchema;

const factor = {
  type: 'object',
  properties: {
    value: { type: 'number', minimum: 0, maximum: 1 },
    weight: { type: 'number', minimum: 0, maximum: 1, description: "The context's weight of this factor." },
    contribution: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      description: 'Points it adds to the composite: 100 x value x weight.',
    },
    detail: { type: 'string' },
  },
  required: ['value', 'weight', 'contribution', 'detail'],
  additionalProperties: false,
} as const;

export const threatScoreResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      target: { type: 'string', description: 'The target as scored (normalised).' },
      target_type: { type: 'string', enum: SCORE_TARGET_TYPES },
      context: { type: 'string', enum: SCORE_CONTEXTS },
      composite_score: { type: 'integer', minimum: 0, maximum: 100 },
      severity: {
        type: 'string',
        enum: SCORE_SEVERITIES,
        description: 'LOW below 25, MEDIUM from 25, HIGH from 50, CRITICAL from 75.',
      },
      matched_signatures: {
        type: 'array',
        items: { type: 'string' },
        description: 'Threat definitions whose indicators hold the target, and those matched by events naming it.',
      },
      factors: {
        type: 'object',
        properties: Object.fromEntries(SCORE_FACTORS.map((f) => [f, factor])) as Record<
          (typeof SCORE_FACTORS)[number],
          typeof factor
        >,
        required: [...SCORE_FACTORS],
        additionalProperties: false,
      },
      watchlist: {
        type: 'array',
        description: 'The watchlist entries the target touches (itself, its country or ASN, a watched line near it).',
        items: {
          type: 'object',
          properties: {
            entry_id: uuid,
            entity_type: { type: 'string' },
            value: { type: 'string' },
            label: { type: 'string' },
          },
          required: ['entry_id', 'entity_type', 'value', 'label'],
          additionalProperties: false,
        },
      },
      geography: {
        type: 'object',
        properties: {
          country: {
            type: ['string', 'null'],
            description: "ISO 3166-1 alpha-2: of an IP (offline database), of a domain's TLD, of a vessel's flag.",
          },
          asn: { type: ['integer', 'null'] },
          as_org: { type: ['string', 'null'] },
          scope: {
            type: ['string', 'null'],
            description:
              'Of an IP: public, private, loopback, link_local, shared, documentation, multicast, reserved or unspecified.',
          },
          zones: { type: 'array', items: uuid, description: "The tenant's active zones the position falls in." },
          source: {
            type: ['object', 'null'],
            description:
              'Of an IP: the offline databases answered from (package and version), and the credit their licences ask for.',
            properties: { data: { type: 'string' }, attribution: { type: 'string' } },
            required: ['data', 'attribution'],
            additionalProperties: false,
          },
        },
        required: ['country', 'asn', 'as_org', 'scope', 'zones', 'source'],
        additionalProperties: false,
      },
      window: {
        type: 'object',
        properties: { from: timestamp, to: timestamp },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      computed_at: timestamp,
      notes: { type: 'array', items: { type: 'string' }, description: 'What the data could not tell.' },
    },
    required: [
      'target',
      'target_type',
      'context',
      'composite_score',
      'severity',
      'matched_signatures',
      'factors',
      'watchlist',
      'geography',
      'window',
      'computed_at',
      'notes',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
