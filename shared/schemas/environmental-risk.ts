/** Environmental risk (docs/connectors.md, "Environmental risk"): the hazards kept now near each of the tenant's environments and lines. */
import { timestamp, uuid } from './common.js';
import { HAZARD_FEEDS } from './feed-catalog.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const MAX_RISK_DAYS = 30;
export const MAX_RISK_RADIUS_KM = 1000;
export const MAX_HAZARDS_PER_ENVIRONMENT = 100;
/** Earthquakes below this are not indexed by time (shared/domain/connectors/hazard-feeds.ts INDEXED_MIN_MAGNITUDE): none to show. */
export const LEAST_RISK_MAGNITUDE = 2.5;

const HAZARD_LEVELS = ['none', 'low', 'moderate', 'high', 'severe'] as const;

export const environmentalRiskQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      environment_id: {
        ...uuid,
        description: 'One environment only (its point and its lines); 404 when it is not one of yours.',
      },
      days: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RISK_DAYS,
        default: 7,
        description:
          'Earthquakes of the last `days` days, and GDACS events that went on within them. NWS alerts count while in force, whatever `days`.',
      },
      radius_km: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: MAX_RISK_RADIUS_KM,
        description:
          "One distance (km) for every hazard. Unless given, each hazard's own: 100 for earthquakes, by event type for GDACS (EQ 100, TC 300, FL 100, VO 50, DR 300, WF 50), 5 outside an NWS warning polygon.",
      },
      min_magnitude: {
        type: 'number',
        minimum: LEAST_RISK_MAGNITUDE,
        maximum: 10,
        default: LEAST_RISK_MAGNITUDE,
        description: 'The least earthquake magnitude shown (2.5 at the least: smaller ones are not indexed).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_HAZARDS_PER_ENVIRONMENT,
        default: 20,
        description: 'Hazards shown per environment, the gravest and nearest first (`hazards_total` counts them all).',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const hazard = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      feed: { type: 'string', enum: HAZARD_FEEDS },
      hazard: {
        type: 'string',
        description:
          '`earthquake`, `tropical_cyclone`, `flood`, `volcano`, `drought`, `wildfire` (GDACS), `tsunami` or `weather` (NWS).',
      },
      record_id: {
        type: 'string',
        description: 'The record as the feed names it (USGS event id, `gdacs-<type>-<eventid>`, the CAP identifier).',
      },
      title: { type: 'string' },
      level: {
        type: 'string',
        enum: HAZARD_LEVELS.slice(1),
        description:
          'Earthquakes by magnitude (5, 6, 7) and PAGER; GDACS green low, orange high, red severe; NWS by CAP severity (Minor low … Extreme severe).',
      },
      occurred_at: { ...timestamp, description: 'Origin time, start of the event, or onset (effective) of the alert.' },
      distance_km: {
        type: 'number',
        minimum: 0,
        description:
          'From the nearest of the environment’s places (0: inside an alert’s polygon, or a line crossing it).',
      },
      near: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['environment', 'line'] },
          id: { type: 'string' },
          name: { type: 'string' },
        },
        required: ['kind', 'id', 'name'],
        additionalProperties: false,
      },
      location: {
        type: 'object',
        description: 'Where the hazard is: the epicentre or centroid; for an alert polygon, the mean of its corners.',
        properties: { lat: { type: 'number' }, lon: { type: 'number' } },
        required: ['lat', 'lon'],
        additionalProperties: false,
      },
      url: {
        type: ['string', 'null'],
        description: 'The publisher’s page of it (credit USGS, GDACS, NWS where it is shown).',
      },
      details: {
        type: 'object',
        description:
          'The feed’s own fields, as a `hazard.alert` payload carries them (magnitude and depth; GDACS level, severity and dates; CAP event, severity, urgency, certainty, expiry).',
      },
    },
    required: [
      'feed',
      'hazard',
      'record_id',
      'title',
      'level',
      'occurred_at',
      'distance_km',
      'near',
      'location',
      'url',
      'details',
    ],
    additionalProperties: false,
  }) as const)();

export const environmentalRiskAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      generated_at: timestamp,
      since: {
        ...timestamp,
        description: 'The start of the window of earthquakes and GDACS events (now minus `days`).',
      },
      environments: {
        type: 'array',
        description: 'Each of your environments (or the one named), the gravest first, then by name.',
        items: {
          type: 'object',
          properties: {
            environment_id: uuid,
            name: { type: 'string' },
            located: {
              type: 'boolean',
              description: 'It has a `location` or lines: without either nothing can be near it.',
            },
            level: {
              type: 'string',
              enum: HAZARD_LEVELS,
              description: 'Its gravest hazard’s level; `none` without one.',
            },
            hazards: { type: 'array', items: hazard },
            hazards_total: { type: 'integer', minimum: 0 },
          },
          required: ['environment_id', 'name', 'located', 'level', 'hazards', 'hazards_total'],
          additionalProperties: false,
        },
      },
      sources: {
        type: 'object',
        description: 'The sources read: those of your connectors of each feed, or the public one when you have none.',
        properties: {
          'usgs-quakes': { type: 'array', items: { type: 'string' } },
          gdacs: { type: 'array', items: { type: 'string' } },
          'nws-alerts': { type: 'array', items: { type: 'string' } },
        },
        required: ['usgs-quakes', 'gdacs', 'nws-alerts'],
        additionalProperties: false,
      },
      truncated: {
        type: 'boolean',
        description: 'A source held more records in the window than are read at once (5,000): the latest were read.',
      },
    },
    required: ['generated_at', 'since', 'environments', 'sources', 'truncated'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
