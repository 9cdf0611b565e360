/** Connectors (docs/connectors.md): their settings and status, a poll's report, and lookups in the threat feed. */
import { pageOf, pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { FEED_NAMES } from './integrations.js';
import { tenantScope } from './users.js';

const count = { type: 'integer', minimum: 0 } as const;

const records = {
  type: 'object',
  description:
    'What a successful poll did with the records it read: new ones stored, changed ones replaced, the rest left alone; entries it could not read skipped.',
  properties: { read: count, stored: count, updated: count, unchanged: count, skipped: count },
  required: ['read', 'stored', 'updated', 'unchanged', 'skipped'],
  additionalProperties: false,
} as const;

export const connectorResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      connector_id: {
        ...uuid,
        description: 'The `feed` integration it is (`/api/v1/integrations/{integration_id}` changes or removes it).',
      },
      tenant_id: uuid,
      name: { type: 'string' },
      feed: { type: 'string', enum: FEED_NAMES },
      source_url: {
        type: 'string',
        description:
          'The source polled, its credentials (user name and password, a query parameter named like a credential) shown `REDACTED`.',
      },
      public_source: {
        type: 'boolean',
        description: "Polls the feed's public URL: its records are shared, read-only, with every tenant that polls it.",
      },
      enabled: { type: 'boolean' },
      interval_minutes: { type: 'integer' },
      radius_km: {
        type: ['number', 'null'],
        description:
          'Hazard feeds: the distance (km) to an environment or a line that raises a `hazard.alert`; null for GDACS by event type, and for the other feeds.',
      },
      min_magnitude: { type: ['number', 'null'], description: 'Earthquakes: the least magnitude that alerts.' },
      min_alert_level: {
        type: ['string', 'null'],
        enum: ['green', 'orange', 'red', null],
        description: 'GDACS: the least alert level that alerts.',
      },
      status: {
        type: 'object',
        properties: {
          state: { type: 'string', enum: ['never_polled', 'ok', 'failing', 'disabled'] },
          scheduled: {
            type: 'boolean',
            description: 'It polls on its own: in AWS while enabled; under `npm start` only with LOCAL_CONNECTORS=on.',
          },
          next_run_at: {
            ...timestamp,
            type: ['string', 'null'],
            description:
              'When it polls next (the last run, or the last change, plus the interval); null when it does not poll on its own.',
          },
          last_run_at: { ...timestamp, type: ['string', 'null'] },
          last_success_at: { ...timestamp, type: ['string', 'null'] },
          last_error: { type: ['string', 'null'], description: 'Why the last poll failed, or what it skipped.' },
          consecutive_failures: count,
          last_records: { ...records, type: ['object', 'null'] },
          records_stored: { ...count, description: 'New records stored over its life.' },
          alerts_raised: {
            ...count,
            description: '`hazard.alert` (hazards and travel advisories) and `bgp.alert` events raised over its life.',
          },
        },
        required: [
          'state',
          'scheduled',
          'next_run_at',
          'last_run_at',
          'last_success_at',
          'last_error',
          'consecutive_failures',
          'last_records',
          'records_stored',
          'alerts_raised',
        ],
        additionalProperties: false,
      },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: [
      'connector_id',
      'tenant_id',
      'name',
      'feed',
      'source_url',
      'public_source',
      'enabled',
      'interval_minutes',
      'radius_km',
      'min_magnitude',
      'min_alert_level',
      'status',
      'created_at',
      'updated_at',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const connectorListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      feed: { type: 'string', enum: FEED_NAMES, description: 'Connectors of this feed only.' },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const connectorPath = {
  type: 'object',
  properties: { connector_id: uuid },
  required: ['connector_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const connectorScopeQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description } },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const pollResult = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      outcome: { type: 'string', enum: ['ok', 'failed'] },
      error: {
        type: ['string', 'null'],
        description:
          'Why the poll failed: no answer, a refused address, a status other than 2xx, a document past its bound or not of the format.',
      },
      records,
      alerts_raised: {
        ...count,
        description:
          '`hazard.alert` (hazards and travel advisories) and `bgp.alert` events raised by this poll (each once, whatever the polls).',
      },
      connector: connectorResponse,
    },
    required: ['outcome', 'error', 'records', 'alerts_raised', 'connector'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const kevRecord = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The CVE id.' },
    vendor_project: { type: 'string' },
    product: { type: 'string' },
    vulnerability_name: { type: 'string' },
    date_added: { type: 'string', format: 'date' },
    short_description: { type: 'string' },
    required_action: { type: 'string' },
    due_date: { type: 'string', format: 'date' },
    known_ransomware_campaign_use: { type: ['string', 'null'] },
    notes: { type: ['string', 'null'] },
    cwes: { type: 'array', items: { type: 'string' } },
    source_url: { type: 'string' },
  },
  required: [
    'id',
    'vendor_project',
    'product',
    'vulnerability_name',
    'date_added',
    'short_description',
    'required_action',
    'due_date',
    'known_ransomware_campaign_use',
    'notes',
    'cwes',
    'source_url',
  ],
} as const;

export const MAX_KEV_MATCHES = 100;

export const kevQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'A `cve`, or a `product` to search for.',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      cve: {
        type: 'string',
        pattern: '^[Cc][Vv][Ee]-\\d{4}-\\d{4,19}$',
        description: 'A CVE id, e.g. CVE-2021-44228.',
      },
      product: {
        type: 'string',
        minLength: 2,
        maxLength: 100,
        pattern: '\\S',
        description:
          'Entries whose "vendor product" contains these words, in any case: `log4j`, `apache log4j`, `exchange server`.',
      },
      limit: { type: 'integer', minimum: 1, maximum: MAX_KEV_MATCHES, default: 20 },
    },
    anyOf: [
      { properties: { cve: { type: 'string' } }, required: ['cve'] },
      { properties: { product: { type: 'string' } }, required: ['product'] },
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const kevAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      matches: {
        type: 'array',
        items: kevRecord,
        description: 'Known exploited vulnerabilities matching, newest added first.',
      },
      truncated: { type: 'boolean', description: 'More matched than `limit`.' },
      sources: {
        type: 'array',
        description:
          "The catalogues read: the sources of the tenant's `cisa-kev` connectors, or the public one when it has none.",
        items: { type: 'string' },
      },
      fetched_at: {
        type: ['string', 'null'],
        description: 'For a `cve` lookup: when the record found was last fetched (new or changed); null otherwise.',
      },
    },
    required: ['matches', 'truncated', 'sources', 'fetched_at'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const MAX_INDICATOR_MATCHES = 100;

const INDICATOR_TYPES = ['ip', 'cidr', 'domain', 'url', 'sha256', 'sha1', 'md5', 'email'] as const;

export const indicatorQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'One of `ip`, `domain`, `url`, `hash`, `email`.',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      ip: {
        type: 'string',
        minLength: 2,
        maxLength: 64,
        description: 'An IPv4 or IPv6 address: indicators naming it, or a network holding it.',
      },
      domain: {
        type: 'string',
        minLength: 3,
        maxLength: 253,
        description: 'A host name: indicators naming it or a parent domain (`evil.example` matches `a.evil.example`).',
      },
      url: {
        type: 'string',
        minLength: 8,
        maxLength: 2048,
        description: 'A URL, as listed (defanged forms such as `hxxp` and `[.]` are read).',
      },
      hash: {
        type: 'string',
        pattern: '^[0-9A-Fa-f]{32}([0-9A-Fa-f]{8})?([0-9A-Fa-f]{24})?$',
        description: 'An MD5, SHA-1 or SHA-256 file hash.',
      },
      email: { type: 'string', minLength: 3, maxLength: 320, description: 'An e-mail address.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_INDICATOR_MATCHES, default: 20 },
    },
    oneOf: [
      { properties: { ip: { type: 'string' } }, required: ['ip'] },
      { properties: { domain: { type: 'string' } }, required: ['domain'] },
      { properties: { url: { type: 'string' } }, required: ['url'] },
      { properties: { hash: { type: 'string' } }, required: ['hash'] },
      { properties: { email: { type: 'string' } }, required: ['email'] },
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const indicatorRecord = {
  type: 'object',
  properties: {
    id: { type: 'string', description: '`<type>|<value>|<origin>`: the origin is the STIX indicator id, or `csv`.' },
    type: { type: 'string', enum: INDICATOR_TYPES },
    value: {
      type: 'string',
      description:
        'Normalised: the canonical address or network, lower-case domain, e-mail and hash; the URL as listed (refanged).',
    },
    valid_from: { type: ['string', 'null'] },
    valid_until: { type: ['string', 'null'] },
    labels: { type: 'array', items: { type: 'string' } },
    description: { type: ['string', 'null'] },
    for_detection: {
      type: 'boolean',
      description: 'False for a MISP attribute marked `to_ids=0` (context, not for detection).',
    },
    source: {
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['stix', 'csv', 'misp-csv'] },
        object_id: { type: ['string', 'null'] },
        name: { type: ['string', 'null'] },
      },
      required: ['format', 'object_id', 'name'],
      additionalProperties: false,
    },
    source_url: { type: 'string' },
  },
  required: [
    'id',
    'type',
    'value',
    'valid_from',
    'valid_until',
    'labels',
    'description',
    'for_detection',
    'source',
    'source_url',
  ],
  additionalProperties: false,
} as const;

export const indicatorAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      query: {
        type: 'object',
        description: 'What was looked up, normalised as the lists are (a hash typed by its length).',
        properties: { type: { type: 'string', enum: INDICATOR_TYPES }, value: { type: 'string' } },
        required: ['type', 'value'],
        additionalProperties: false,
      },
      matches: {
        type: 'array',
        items: indicatorRecord,
        description:
          'Indicators valid now that name it (for an IP: or a network holding it; for a domain: or a parent), most recently valid first.',
      },
      truncated: { type: 'boolean', description: 'More matched than `limit`.' },
      sources: {
        type: 'array',
        items: { type: 'string' },
        description: 'The lists read: the sources of your `stix-indicators` and `csv-indicators` connectors.',
      },
    },
    required: ['query', 'matches', 'truncated', 'sources'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const connectorList = /* @__PURE__ */ (() =>
  pageOf(connectorResponse, 'A page of the connectors (at most 50 integrations), oldest first.'))();
