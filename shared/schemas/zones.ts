/** Zones: areas of an environment with a geofence and a security level. */
import { pagingProperties, timestamp, uuid } from './common.js';
import { bbox, geofence } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const ZONE_TYPES = [
  'perimeter',
  'restricted',
  'public',
  'entrance',
  'parking',
  'storage',
  'critical',
  'waterside',
  'other',
] as const;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const type = { type: 'string', enum: ZONE_TYPES } as const;
const securityLevel = {
  type: 'integer',
  minimum: 1,
  maximum: 5,
  description: '1 (public) to 5 (most sensitive); weighs in threat scoring.',
} as const;
const description = { type: ['string', 'null'], maxLength: 2000 } as const;
const active = { type: 'boolean', description: 'Inactive zones are kept but match no events.' } as const;

export const zoneCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      environment_id: uuid,
      name,
      type: { ...type, default: 'other' },
      security_level: { ...securityLevel, default: 3 },
      geofence,
      description,
      active: { ...active, default: true },
    },
    required: ['environment_id', 'name', 'geofence'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const zoneUpdate = {
  type: 'object',
  properties: { name, type, security_level: securityLevel, geofence, description, active },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const zoneResponse = {
  type: 'object',
  properties: {
    zone_id: uuid,
    tenant_id: uuid,
    environment_id: uuid,
    name: { type: 'string' },
    type,
    security_level: securityLevel,
    geofence,
    description,
    active: { type: 'boolean' },
    area_m2: { type: 'number', description: 'Area of the geofence in square metres.' },
    bbox,
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: [
    'zone_id',
    'tenant_id',
    'environment_id',
    'name',
    'type',
    'security_level',
    'geofence',
    'description',
    'active',
    'area_m2',
    'bbox',
    'created_at',
    'updated_at',
  ],
} as const satisfies JsonSchema;

export const zonePath = {
  type: 'object',
  properties: { zone_id: uuid },
  required: ['zone_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/** The spec has get, update and delete name the tenant in the query; absent, it is the caller's own. */
export const zoneScopeQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: { ...uuid, description: "The tenant: the caller's own, or any for SUPER_ADMIN." } },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const zoneListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { environment_id: uuid, tenant_id: zoneScopeQuery.properties.tenant_id, ...pagingProperties },
    required: ['environment_id'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
