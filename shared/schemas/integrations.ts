/**
 * Integrations: the places people are told (Slack and Microsoft Teams incoming webhooks, PagerDuty
 * Events API v2) and a generic signed HTTP endpoint. Credentials are write-only: kept sealed, never
 * returned; a response shows where an integration points and the last characters of its credential.
 */
import { pagingProperties, timestamp, uuid } from './common.js';
import { FEED_NAMES, type FeedName } from './feed-catalog.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

/** The kinds that tell people: incident notifications, escalation levels and workflow steps name these. */
export const NOTIFY_KINDS = ['slack', 'teams', 'pagerduty', 'http', 'email'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
/** `feed`: a connector polling a public feed on a schedule (docs/connectors.md); it tells nobody. */
/** `drone`: a dock or fleet API that takes dispatch commands (docs/drones.md); it tells nobody either. */
export const INTEGRATION_KINDS = ['slack', 'teams', 'pagerduty', 'http', 'email', 'feed', 'drone'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];
export const isNotifyKind = (kind: IntegrationKind): kind is NotifyKind =>
  (NOTIFY_KINDS as readonly string[]).includes(kind);

/** The feeds a connector may poll: the keys of the feed catalog (feed-catalog.ts). */
export { FEED_NAMES, type FeedName };
/** A connector polls at most this often and at least this seldom (minutes). */
export const MIN_POLL_MINUTES = 5;
export const MAX_POLL_MINUTES = 1440;

/** Where PagerDuty's Events API v2 takes events. */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

const address = { type: 'string', minLength: 8, maxLength: 2048 } as const;

const config = {
  type: 'object',
  description:
    'By kind: `slack` and `teams` need `webhook_url` (the incoming webhook, itself a credential); `pagerduty` needs `routing_key` (the integration key of an Events API v2 integration) and may name another `endpoint`; `http` needs `url` and gets a signing secret, shown once; `email` needs `to` (sent through Amazon SES from the sender address of the deployment, or under `npm start` to its local mail folder); `feed` needs `feed` and may name `url`, `interval_minutes`, and for the hazard feeds `radius_km` (and `min_magnitude` for earthquakes, `min_alert_level` for GDACS), for RIS Live `stream_seconds` and `provides_transit`; `drone` (a drone dock or fleet API, docs/drones.md: it is sent dispatch commands, never notices) needs `url` and gets a signing secret, shown once, that signs the commands and the callbacks of the dock. Every address must be https to a public host (plain http only to a loopback receiver where the deployment allows it).',
  properties: {
    webhook_url: address,
    routing_key: {
      type: 'string',
      pattern: '^[A-Za-z0-9]{32}$',
      description: 'A PagerDuty integration key: 32 letters and digits.',
    },
    endpoint: address,
    url: address,
    to: {
      type: 'array',
      items: { type: 'string', format: 'email', maxLength: 254 },
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description: 'For `email`: the addresses told.',
    },
    feed: {
      type: 'string',
      enum: FEED_NAMES,
      description:
        "For `feed`: which feed it polls (docs/feeds.md, docs/connectors.md). `url` may name another source of the same format; the public one otherwise. `stix-indicators` and `csv-indicators` (your own indicator lists) `geopolitical-list` (your own advisories and sanctions programmes) and `canada-advisory` (one country's document each) have no public source: they need `url`.",
    },
    interval_minutes: {
      type: 'integer',
      minimum: MIN_POLL_MINUTES,
      maximum: MAX_POLL_MINUTES,
      description:
        "For `feed`: minutes between polls (the feed's own default unless given: 5 for NWS alerts and RIS Live, 15 for Kp, solar wind and earthquakes, 60 for GDACS, indicator lists, RPKI and `geopolitical-list`, 360 for `state-dept-advisories` and `canada-advisory`, 1440 for KEV and `ofac-sdn`).",
    },
    radius_km: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 2000,
      description:
        "For `usgs-quakes`, `gdacs` and `nws-alerts`: a hazard this close (km) to one of your environments or lines raises a `hazard.alert`. Unless given: 100 for earthquakes; for GDACS by event type (EQ 100, TC 300, FL 100, VO 50, DR 300, WF 50, from the event's centroid); 5 outside an NWS warning's polygon (inside it is 0 km).",
    },
    min_magnitude: {
      type: 'number',
      minimum: -2,
      maximum: 10,
      description: 'For `usgs-quakes`: only earthquakes of at least this magnitude alert (2.5 unless given).',
    },
    min_alert_level: {
      type: 'string',
      enum: ['green', 'orange', 'red'],
      description:
        'For `gdacs`: only events of at least this GDACS alert level alert (`green`, every event, unless given).',
    },
    stream_seconds: {
      type: 'integer',
      minimum: 2,
      maximum: 20,
      description:
        'For `ris-live`: seconds each poll reads the RIS Live stream (10 unless given); reaching it is the normal end of a poll.',
    },
    provides_transit: {
      type: 'boolean',
      description:
        'For `ris-live`: whether your watched ASNs give transit to others. False (the default) makes a watched ASN seen in the middle of an AS path a possible leak (docs/connectors.md).',
    },
  },
  additionalProperties: false,
} as const;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;

export const integrationCreate = {
  type: 'object',
  properties: {
    tenant_id: tenantScope,
    name,
    kind: { type: 'string', enum: INTEGRATION_KINDS },
    enabled: { type: 'boolean', default: true },
    config,
  },
  required: ['name', 'kind', 'config'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const integrationUpdate = {
  type: 'object',
  description:
    'Only the fields given change. A new `config` replaces the whole of it (credentials are write-only: send them again).',
  properties: { name, enabled: { type: 'boolean' }, config },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

const integrationFields = {
  integration_id: uuid,
  tenant_id: uuid,
  name: { type: 'string' },
  kind: { type: 'string', enum: INTEGRATION_KINDS },
  enabled: { type: 'boolean' },
  endpoint: {
    type: 'string',
    description:
      'Where it sends: the address with its credentials (user name and password, a query parameter named like a credential) `REDACTED`, or for Slack and Teams (whose address is a credential) its origin only; for email `mailto:` and the recipients. Sent back as shown in a change, a `REDACTED` keeps the credential kept at its place (same host only).',
  },
  credential_hint: {
    type: ['string', 'null'],
    description: 'The last four characters of the credential (webhook URL or routing key), or null.',
  },
  created_at: timestamp,
  updated_at: timestamp,
} as const;

export const integrationResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: integrationFields,
    required: Object.keys(integrationFields),
  }) as const satisfies JsonSchema)();

export const integrationCreated = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...integrationFields,
      secret: {
        type: 'string',
        pattern: '^whsec_',
        description: 'For `http` and `drone`: the signing secret (Standard Webhooks), shown this once.',
      },
    },
    required: Object.keys(integrationFields),
  }) as const satisfies JsonSchema)();

export const integrationPath = {
  type: 'object',
  properties: { integration_id: uuid },
  required: ['integration_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const integrationListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose integrations to list: your own (only SUPER_ADMIN may name another).',
      },
      ...pagingProperties,
    },
    required: ['tenant_id'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const integrationScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

/** TestConnectionResult. */
export const testConnectionResult = {
  type: 'object',
  properties: {
    reachable: { type: 'boolean', description: 'The endpoint answered 2xx.' },
    status_code: {
      type: ['integer', 'null'],
      description: 'Its status; null when it gave none (refused, unreachable, timed out).',
    },
    latency_ms: { type: 'integer' },
    error: { type: ['string', 'null'] },
    tested_at: timestamp,
  },
  required: ['reachable', 'status_code', 'latency_ms', 'error', 'tested_at'],
} as const satisfies JsonSchema;
