/**
 * Integrations: the places people are told (Slack and Microsoft Teams incoming webhooks, PagerDuty
 * Events API v2) and a generic signed HTTP endpoint. Credentials are write-only: kept sealed, never
 * returned; a response shows where an integration points and the last characters of its credential.
 */
import { pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const INTEGRATION_KINDS = ['slack', 'teams', 'pagerduty', 'http', 'email', 'drone'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** Where PagerDuty's Events API v2 takes events. */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

const address = { type: 'string', minLength: 8, maxLength: 2048 } as const;

const config = {
  type: 'object',
  description:
    'By kind: `slack` and `teams` need `webhook_url` (the incoming webhook, itself a credential); `pagerduty` needs `routing_key` (the integration key of an Events API v2 integration) and may name another `endpoint`; `http` needs `url` and gets a signing secret, shown once; `email` needs `to` (sent through Amazon SES from the sender address of the deployment, or under `npm start` to its local mail folder); `drone` (a drone dock or fleet API, docs/drones.md: it is sent dispatch commands, never notices) needs `url` and gets a signing secret, shown once, that signs the commands and the callbacks of the dock. Every address must be https to a public host (plain http only to a loopback receiver where the deployment allows it).',
  properties: {
    webhook_url: address,
    routing_key: { type: 'string', pattern: '^[A-Za-z0-9]{32}$', description: 'A PagerDuty integration key: 32 letters and digits.' },
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
  description: 'Only the fields given change. A new `config` replaces the whole of it (credentials are write-only: send them again).',
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
  endpoint: { type: 'string', description: 'Where it sends: the full address, or for Slack and Teams (whose address is a credential) its origin only; for email `mailto:` and the recipients.' },
  credential_hint: { type: ['string', 'null'], description: 'The last four characters of the credential (webhook URL or routing key), or null.' },
  created_at: timestamp,
  updated_at: timestamp,
} as const;

export const integrationResponse = /* @__PURE__ */ (() => ({
  type: 'object',
  properties: integrationFields,
  required: Object.keys(integrationFields),
} as const satisfies JsonSchema))();

export const integrationCreated = /* @__PURE__ */ (() => ({
  type: 'object',
  properties: {
    ...integrationFields,
    secret: { type: 'string', pattern: '^whsec_', description: 'For `http` and `drone`: the signing secret (Standard Webhooks), shown this once.' },
  },
  required: Object.keys(integrationFields),
} as const satisfies JsonSchema))();

export const integrationPath = {
  type: 'object',
  properties: { integration_id: uuid },
  required: ['integration_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const integrationListQuery = /* @__PURE__ */ (() => ({
  type: 'object',
  properties: { tenant_id: { ...tenantScope, description: 'The tenant whose integrations to list: your own (only SUPER_ADMIN may name another).' }, ...pagingProperties },
  required: ['tenant_id'],
  additionalProperties: false,
} as const satisfies JsonSchema))();

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
    status_code: { type: ['integer', 'null'], description: 'Its status; null when it gave none (refused, unreachable, timed out).' },
    latency_ms: { type: 'integer' },
    error: { type: ['string', 'null'] },
    tested_at: timestamp,
  },
  required: ['reachable', 'status_code', 'latency_ms', 'error', 'tested_at'],
} as const satisfies JsonSchema;
