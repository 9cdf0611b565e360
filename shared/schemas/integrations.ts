/**
 * Integrations: the places people are told (Slack and Microsoft Teams incoming webhooks, PagerDuty
 * Events API v2) and a generic signed HTTP endpoint. Credentials are write-only: kept sealed, never
 * returned; a response shows where an integration points and the last characters of its credential.
 */
import { pagingProperties, timestamp, uuid } from './common.js';
import { FEED_NAMES, FEED_SETTINGS, feedEntry, type FeedName } from './feed-catalog.js';
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

const address = { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 } as const;

/**
 * Every setting of a `config`, whatever the kind. Each kind takes some of them (INTEGRATION_CONFIG
 * below): its branch of the body's `oneOf` lists exactly those, with its own `required`.
 */
export const configFields = /* @__PURE__ */ (() =>
  ({
    webhook_url: { ...address, description: 'The incoming webhook: itself a credential.' },
    routing_key: {
      type: 'string',
      pattern: '^[A-Za-z0-9]{32}$',
      description: 'A PagerDuty integration key (of an Events API v2 integration): 32 letters and digits.',
    },
    endpoint: { ...address, description: `Where PagerDuty events go (${PAGERDUTY_EVENTS_URL} unless given).` },
    url: address,
    to: {
      type: 'array',
      items: { type: 'string', format: 'email', maxLength: 254 },
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description:
        'The addresses told (sent through Amazon SES from the sender address of the deployment, or under `npm start` to its local mail folder).',
    },
    feed: {
      type: 'string',
      enum: FEED_NAMES,
      description: 'Which feed it polls (docs/feeds.md, docs/connectors.md).',
    },
    interval_minutes: {
      type: 'integer',
      minimum: MIN_POLL_MINUTES,
      maximum: MAX_POLL_MINUTES,
      description:
        "Minutes between polls (the feed's own default unless given: 5 for NWS alerts and RIS Live, 15 for Kp, solar wind and earthquakes, 60 for GDACS, indicator lists, RPKI and `geopolitical-list`, 360 for `state-dept-advisories` and `canada-advisory`, 1440 for KEV and `ofac-sdn`).",
    },
    radius_km: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 2000,
      description:
        "A hazard this close (km) to one of your environments or lines raises a `hazard.alert`. Unless given: 100 for earthquakes; for GDACS by event type (EQ 100, TC 300, FL 100, VO 50, DR 300, WF 50, from the event's centroid); 5 outside an NWS warning's polygon (inside it is 0 km).",
    },
    min_magnitude: {
      type: 'number',
      minimum: -2,
      maximum: 10,
      description: 'Only earthquakes of at least this magnitude alert (2.5 unless given).',
    },
    min_alert_level: {
      type: 'string',
      enum: ['green', 'orange', 'red'],
      description: 'Only events of at least this GDACS alert level alert (`green`, every event, unless given).',
    },
    stream_seconds: {
      type: 'integer',
      minimum: 2,
      maximum: 20,
      description:
        'Seconds each poll reads the RIS Live stream (10 unless given); reaching it is the normal end of a poll.',
    },
    provides_transit: {
      type: 'boolean',
      description:
        'Whether your watched ASNs give transit to others. False (the default) makes a watched ASN seen in the middle of an AS path a possible leak (docs/connectors.md).',
    },
  }) as const)();
type ConfigField = keyof typeof configFields;

/** The settings each kind takes: `required` ones and the others. The domain refuses any other. */
export const INTEGRATION_CONFIG = /* @__PURE__ */ (() =>
  ({
    slack: { required: ['webhook_url'], optional: [] },
    teams: { required: ['webhook_url'], optional: [] },
    pagerduty: { required: ['routing_key'], optional: ['endpoint'] },
    http: { required: ['url'], optional: [] },
    email: { required: ['to'], optional: [] },
    feed: { required: ['feed'], optional: ['url', 'interval_minutes', ...FEED_SETTINGS] },
    drone: { required: ['url'], optional: [] },
  }) as const satisfies Record<
    IntegrationKind,
    { required: readonly ConfigField[]; optional: readonly ConfigField[] }
  >)();

/** What each kind's config is, in words (the description of its branch). */
const KIND_CONFIG: Record<IntegrationKind, string> = {
  slack: 'A Slack incoming webhook.',
  teams: 'A Microsoft Teams incoming webhook.',
  pagerduty: 'A PagerDuty Events API v2 integration.',
  http: 'A signed HTTP endpoint: it gets a signing secret (Standard Webhooks), shown once.',
  email: 'Email to these addresses.',
  feed: 'A connector polling a public feed on a schedule (docs/connectors.md); it tells nobody.',
  drone:
    'A drone dock or fleet API (docs/drones.md): it is sent dispatch commands, never notices, and gets a signing secret, shown once, that signs the commands and the callbacks of the dock.',
};

const ADDRESSES =
  'Every address must be https to a public host (plain http only to a loopback receiver where the deployment allows it).';

/** A closed object of the named settings. */
function settings(names: readonly ConfigField[], required: readonly ConfigField[], description: string): JsonSchema {
  return {
    type: 'object',
    description,
    properties: Object.fromEntries(names.map((n) => [n, configFields[n]])),
    required,
    additionalProperties: false,
  };
}

/**
 * A `feed` config: one branch per feed, with the settings its catalog entry takes, and `url`
 * required where the feed has no public source (a tenant's own lists).
 */
const feedConfig = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: `${KIND_CONFIG.feed} \`url\` may name another source of the same format; the public one otherwise. ${ADDRESSES}`,
    properties: { feed: configFields.feed },
    required: ['feed'],
    discriminator: { propertyName: 'feed' },
    oneOf: FEED_NAMES.map((feed) => {
      const entry = feedEntry(feed);
      const base: ConfigField[] = ['url', 'interval_minutes'];
      const own = Object.keys(entry.settings) as ConfigField[];
      const branch = settings(
        ['feed', ...base, ...own],
        entry.defaultUrl === null ? ['feed', 'url'] : ['feed'],
        entry.defaultUrl === null ? `\`${feed}\`: your own source, so \`url\` is required.` : `\`${feed}\`.`,
      );
      return {
        ...branch,
        title: `feed config: ${feed}`,
        properties: { ...(branch.properties as object), feed: { type: 'string', const: feed } },
      };
    }),
    // Typed as the settings of every feed together: the branches are built from the catalog.
  }) as unknown as {
    type: 'object';
    properties: Pick<typeof configFields, (typeof INTEGRATION_CONFIG.feed)['optional'][number] | 'feed'>;
    required: ['feed'];
    additionalProperties: false;
  })();

/** The config of one kind: its settings, exactly. */
const kindConfig = <K extends Exclude<IntegrationKind, 'feed'>>(kind: K) => {
  const { required, optional } = INTEGRATION_CONFIG[kind];
  return settings([...required, ...optional], required, `${KIND_CONFIG[kind]} ${ADDRESSES}`) as {
    type: 'object';
    properties: Pick<
      typeof configFields,
      (typeof INTEGRATION_CONFIG)[K]['required'][number] | (typeof INTEGRATION_CONFIG)[K]['optional'][number]
    >;
    required: (typeof INTEGRATION_CONFIG)[K]['required'];
    additionalProperties: false;
  };
};

/** Each kind's config. */
export const integrationConfigs = /* @__PURE__ */ (() => ({
  slack: kindConfig('slack'),
  teams: kindConfig('teams'),
  pagerduty: kindConfig('pagerduty'),
  http: kindConfig('http'),
  email: kindConfig('email'),
  feed: feedConfig,
  drone: kindConfig('drone'),
}))();

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;

/** One kind's body: `kind` says which, `config` holds exactly its settings. */
const createBranch = <K extends IntegrationKind>(kind: K) =>
  ({
    type: 'object',
    title: `${kind} integration`,
    properties: {
      tenant_id: tenantScope,
      name,
      kind: { type: 'string', const: kind },
      enabled: { type: 'boolean', default: true },
      config: integrationConfigs[kind],
    },
    required: ['name', 'kind', 'config'],
    additionalProperties: false,
  }) as const;

/**
 * A new integration: one branch per `kind` (a `oneOf` with a discriminator), each with the
 * settings of its kind in `config`. A setting of another kind is a 422 naming the field and the kind.
 */
export const integrationCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'One body per `kind`: `config` holds exactly the settings of that kind.',
    properties: { kind: { type: 'string', enum: INTEGRATION_KINDS } },
    required: ['kind'],
    discriminator: { propertyName: 'kind' },
    oneOf: [
      createBranch('slack'),
      createBranch('teams'),
      createBranch('pagerduty'),
      createBranch('http'),
      createBranch('email'),
      createBranch('feed'),
      createBranch('drone'),
    ],
  }) as const satisfies JsonSchema)();

export const integrationUpdate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      'Only the fields given change. A new `config` replaces the whole of it (credentials are write-only: send them again); it is the config of the kind the integration has (its kind never changes): a setting of another kind is a 422.',
    properties: {
      name,
      enabled: { type: 'boolean' },
      config: {
        description: "The settings of the integration's own kind.",
        anyOf: [
          integrationConfigs.slack,
          integrationConfigs.pagerduty,
          integrationConfigs.http,
          integrationConfigs.email,
          integrationConfigs.feed,
        ],
      },
    },
    minProperties: 1,
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

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
