/** The geopolitical overlay (docs/connectors.md, "Geopolitical risk"): advisories and sanctions over a tenant's places, vessels and addresses. */
import type { JsonSchema } from './json-schema.js';
import { timestamp, uuid } from './common.js';
import { tenantScope } from './users.js';

export const geopoliticalRiskQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      country: {
        type: 'string',
        pattern: '^[A-Za-z]{2}$',
        description:
          'One country, ISO 3166-1 alpha-2 (GB, not UK): its overlay, and only your environments, vessels and addresses in it.',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const level = {
  type: ['integer', 'null'],
  enum: [1, 2, 3, 4, null],
  description:
    '1 normal precautions, 2 increased caution, 3 reconsider (or avoid non-essential) travel, 4 do not travel: the highest any source gives. Null: no source has an advisory for it.',
} as const;
const countryCode = { type: ['string', 'null'], pattern: '^[A-Z]{2}$' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const sourceKind = {
  type: 'string',
  enum: ['us-state-dept', 'ca-gac', 'ofac-sdn', 'list'],
  description:
    '`us-state-dept` (US State Department), `ca-gac` (Global Affairs Canada), `ofac-sdn`, or `list` (your own geopolitical list).',
} as const;

const placed = /* @__PURE__ */ (() =>
  ({
    country: { ...countryCode, description: 'ISO 3166-1 alpha-2; null when not known.' },
    level,
    sanctioned_country: { type: 'boolean', description: 'A sanctions source lists a programme against that country.' },
  }) as const)();
const placedRequired = ['country', 'level', 'sanctioned_country'] as const;

const countryOverlay = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
      level,
      advisories: {
        type: 'array',
        description: 'Each source’s advisory for the country, the highest level first.',
        items: {
          type: 'object',
          properties: {
            level: { type: 'integer', minimum: 1, maximum: 4 },
            title: { type: 'string' },
            summary: nullableText,
            updated: { ...timestamp, type: ['string', 'null'] },
            url: nullableText,
            source: sourceKind,
          },
          required: ['level', 'title', 'summary', 'updated', 'url', 'source'],
          additionalProperties: false,
        },
      },
      sanctions: {
        type: 'array',
        description: 'The sanctions programmes against the country.',
        items: {
          type: 'object',
          properties: {
            programme: { type: 'string' },
            summary: nullableText,
            listed: {
              type: ['integer', 'null'],
              minimum: 0,
              description: 'How many entries of the list carry the programme (OFAC); null for your own list.',
            },
            url: nullableText,
            source: sourceKind,
          },
          required: ['programme', 'summary', 'listed', 'url', 'source'],
          additionalProperties: false,
        },
      },
    },
    required: ['country', 'level', 'advisories', 'sanctions'],
    additionalProperties: false,
  }) as const)();

export const geopoliticalRiskAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      country: { ...countryCode, description: 'The country asked about, or null.' },
      countries: {
        type: 'array',
        items: countryOverlay,
        description: 'The overlay of every country named below (and of the one asked about), by code.',
      },
      environments: {
        type: 'array',
        description:
          'Your environments (at most 500), with the country each names (`country` on the environment; null when not set).',
        items: {
          type: 'object',
          properties: { environment_id: uuid, name: { type: 'string' }, type: { type: 'string' }, ...placed },
          required: ['environment_id', 'name', 'type', ...placedRequired],
          additionalProperties: false,
        },
      },
      vessels: {
        type: 'array',
        description:
          'The vessels you saw in the last 7 days and those you watch (at most 500), their flag read from the MMSI’s MID; the sanctioned first.',
        items: {
          type: 'object',
          properties: {
            mmsi: { type: 'string', pattern: '^\\d{9}$' },
            name: nullableText,
            imo: { type: ['string', 'null'], pattern: '^\\d{7}$' },
            ...placed,
            flag_name: { ...nullableText, description: 'The administration the MID is allocated to (ITU).' },
            watched: { type: 'boolean' },
            last_seen: { ...timestamp, type: ['string', 'null'] },
            sanctioned: {
              type: 'boolean',
              description: 'A sanctions list names this vessel by its IMO number or MMSI.',
            },
            listings: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  listing_id: { type: 'string' },
                  name: { type: 'string' },
                  programmes: { type: 'array', items: { type: 'string' } },
                  matched_by: { type: 'array', items: { type: 'string', enum: ['imo', 'mmsi'] } },
                  listed_flag: {
                    ...countryCode,
                    description:
                      'The flag the list gives (it may differ from the MMSI’s: flag changes are common among listed tankers).',
                  },
                  listed_flag_name: nullableText,
                  source: sourceKind,
                },
                required: [
                  'listing_id',
                  'name',
                  'programmes',
                  'matched_by',
                  'listed_flag',
                  'listed_flag_name',
                  'source',
                ],
                additionalProperties: false,
              },
            },
          },
          required: [
            'mmsi',
            'name',
            'imo',
            ...placedRequired,
            'flag_name',
            'watched',
            'last_seen',
            'sanctioned',
            'listings',
          ],
          additionalProperties: false,
        },
      },
      ips: {
        type: 'array',
        description:
          'The IP addresses and ranges you watch, each address with its country in the offline IP data (a range is not located).',
        items: {
          type: 'object',
          properties: {
            entry_id: uuid,
            value: { type: 'string' },
            label: nullableText,
            located: { type: 'boolean' },
            ...placed,
          },
          required: ['entry_id', 'value', 'label', 'located', ...placedRequired],
          additionalProperties: false,
        },
      },
      truncated: {
        type: 'object',
        properties: { environments: { type: 'boolean' }, vessels: { type: 'boolean' } },
        required: ['environments', 'vessels'],
        additionalProperties: false,
        description: 'More environments or vessels than one answer assesses (500 each).',
      },
      sources: {
        type: 'object',
        properties: {
          advisories: { type: 'array', items: { type: 'string' } },
          sanctions: { type: 'array', items: { type: 'string' } },
        },
        required: ['advisories', 'sanctions'],
        additionalProperties: false,
        description: 'The sources read: your connectors’ (the public feeds when you have none of a feed).',
      },
    },
    required: ['country', 'countries', 'environments', 'vessels', 'ips', 'truncated', 'sources'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
