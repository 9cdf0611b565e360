/** Internet health (docs/connectors.md, "Internet health"): watched prefixes' routing and RPKI, and routing alerts. */
import { ROUTING_FEEDS } from './feed-catalog.js';
import type { JsonSchema } from './json-schema.js';
import { nextOffset, pagingProperties, timestamp, uuid } from './common.js';
import { tenantScope } from './users.js';

const count = { type: 'integer', minimum: 0 } as const;
const asn = { type: 'integer', minimum: 0, maximum: 4294967295 } as const;
const prefixText = {
  type: 'string',
  maxLength: 64,
  description: 'An IPv4 or IPv6 prefix in CIDR notation (`193.0.0.0/21`, `2001:db8::/32`).',
} as const;
const asPath = /* @__PURE__ */ (() =>
  ({
    type: ['array', 'null'],
    items: { anyOf: [asn, { type: 'array', items: asn }] },
    description: 'The AS path, nearest AS first; an AS_SET as a nested list; null for a withdrawal.',
  }) as const)();
const rpkiState = { type: 'string', enum: ['valid', 'invalid', 'not-found'] } as const;

export const internetHealthQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      hours: {
        type: 'integer',
        minimum: 1,
        maximum: 720,
        default: 24,
        description: 'The window of the alert counts, in hours (24 unless given; alerts are kept 30 days).',
      },
      updates: {
        type: 'integer',
        minimum: 0,
        maximum: 20,
        default: 5,
        description: 'The last updates shown per watched prefix.',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const update = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['announcement', 'withdrawal'] },
      prefix: prefixText,
      time: { ...timestamp, description: 'When the route collector received it.' },
      collector: { type: ['string', 'null'], description: 'The RIS route collector (`rrc21`).' },
      peer_asn: asn,
      path: asPath,
      origin_asn: {
        ...asn,
        type: ['integer', 'null'],
        description: 'The last AS of the path; null for a withdrawal or a path ending in an AS_SET.',
      },
    },
    required: ['kind', 'prefix', 'time', 'collector', 'peer_asn', 'path', 'origin_asn'],
    additionalProperties: false,
  }) as const)();

const freshness = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      connector_id: uuid,
      name: { type: 'string' },
      feed: { type: 'string', enum: ROUTING_FEEDS },
      state: { type: 'string', enum: ['never_polled', 'ok', 'failing', 'disabled'] },
      interval_minutes: { type: 'integer', minimum: 1 },
      last_run_at: { ...timestamp, type: ['string', 'null'] },
      last_success_at: { ...timestamp, type: ['string', 'null'] },
      last_error: { type: ['string', 'null'] },
      stale: { type: 'boolean', description: 'No successful poll within three intervals.' },
    },
    required: [
      'connector_id',
      'name',
      'feed',
      'state',
      'interval_minutes',
      'last_run_at',
      'last_success_at',
      'last_error',
      'stale',
    ],
    additionalProperties: false,
  }) as const)();

const kindCounts = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { possible_hijack: count, possible_leak: count },
    required: ['possible_hijack', 'possible_leak'],
    additionalProperties: false,
  }) as const)();

export const internetHealthAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      generated_at: timestamp,
      window_hours: { type: 'integer', minimum: 1 },
      prefixes: {
        type: 'array',
        description:
          'Each watched prefix: the `ip` ranges of your watchlist, with every `asn` entry as an expected origin.',
        items: {
          type: 'object',
          properties: {
            prefix: prefixText,
            expected_origins: { type: 'array', items: asn },
            rpki: {
              type: ['array', 'null'],
              description:
                "RFC 6811 validity of the prefix from each expected origin, against your `rpki-vrps` connector's export at its last poll (null: no export judged yet). `state` null: an origin added since.",
              items: {
                type: 'object',
                properties: {
                  asn,
                  state: { ...rpkiState, type: ['string', 'null'], enum: [...rpkiState.enum, null] },
                  covering: {
                    type: 'array',
                    description: 'The VRPs covering the prefix (10 at most).',
                    items: {
                      type: 'object',
                      properties: {
                        asn,
                        prefix: prefixText,
                        max_length: { type: 'integer', minimum: 0, maximum: 128 },
                      },
                      required: ['asn', 'prefix', 'max_length'],
                      additionalProperties: false,
                    },
                  },
                },
                required: ['asn', 'state', 'covering'],
                additionalProperties: false,
              },
            },
            last_updates: {
              type: 'array',
              items: update,
              description: 'The newest updates of it or inside it your `ris-live` connectors kept, newest first.',
            },
            alerts: { ...kindCounts, description: 'Alerts of this prefix in the window.' },
          },
          required: ['prefix', 'expected_origins', 'rpki', 'last_updates', 'alerts'],
          additionalProperties: false,
        },
      },
      asns: { type: 'array', items: asn, description: 'The watched ASNs.' },
      alerts: {
        type: 'object',
        properties: {
          since: timestamp,
          possible_hijack: count,
          possible_leak: count,
          truncated: {
            type: 'boolean',
            description: 'More than 1,000 alerts in the window: the counts are of the newest 1,000.',
          },
        },
        required: ['since', 'possible_hijack', 'possible_leak', 'truncated'],
        additionalProperties: false,
      },
      rpki_computed_at: { ...timestamp, type: ['string', 'null'], description: 'When the RPKI states were judged.' },
      connectors: {
        type: 'array',
        items: freshness,
        description: 'Your `ris-live` and `rpki-vrps` connectors and how fresh they are.',
      },
    },
    required: ['generated_at', 'window_hours', 'prefixes', 'asns', 'alerts', 'rpki_computed_at', 'connectors'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const bgpAlertsQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      kind: { type: 'string', enum: ['possible_hijack', 'possible_leak'] },
      prefix: { ...prefixText, description: 'Alerts of this prefix or of a prefix inside it.' },
      asn: { ...asn, description: 'Alerts whose origin, watched AS or path holds this AS.' },
      since: {
        ...timestamp,
        description: 'Alerts of updates received since then (30 days ago unless given; alerts are kept 30 days).',
      },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const alert = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      id: { type: 'string', description: '`<kind>-<update id>`: the same update gives the same alert.' },
      kind: { type: 'string', enum: ['possible_hijack', 'possible_leak'] },
      rule: {
        type: 'string',
        enum: ['unexpected_origin', 'no_single_origin', 'rpki_invalid', 'transit_by_stub', 'unexpected_upstream'],
      },
      reason: { type: 'string' },
      prefix: prefixText,
      watched_prefix: { ...prefixText, type: ['string', 'null'] },
      watched_asn: { ...asn, type: ['integer', 'null'] },
      origin_asn: { ...asn, type: ['integer', 'null'] },
      path: asPath,
      rpki: { ...rpkiState, type: ['string', 'null'], enum: [...rpkiState.enum, null] },
      update_id: { type: 'string' },
      collector: { type: ['string', 'null'] },
      peer_asn: asn,
      time: { ...timestamp, description: 'When the route collector received the update.' },
      connector_id: { ...uuid, description: 'The `ris-live` connector that read it.' },
      event_id: { ...uuid, description: 'The `bgp.alert` event that announced it.' },
    },
    required: [
      'id',
      'kind',
      'rule',
      'reason',
      'prefix',
      'watched_prefix',
      'watched_asn',
      'origin_asn',
      'path',
      'rpki',
      'update_id',
      'collector',
      'peer_asn',
      'time',
      'connector_id',
      'event_id',
    ],
    additionalProperties: false,
  }) as const)();

export const bgpAlertList = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      items: { type: 'array', items: alert },
      total: { ...count, description: 'Alerts matching the filters (of the newest 1,000 since `since`).' },
      limit: count,
      offset: count,
      next_offset: nextOffset,
      truncated: {
        type: 'boolean',
        description: 'More than 1,000 alerts since `since`: only the newest 1,000 were filtered; narrow `since`.',
      },
    },
    required: ['items', 'total', 'limit', 'offset', 'next_offset', 'truncated'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
