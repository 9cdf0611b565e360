/** Environments: a tenant's sites (a port, a campus, a pipeline, a vessel, ...). */
import { pagingProperties, timestamp, uuid } from './common.js';
import { latLon } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const ENVIRONMENT_TYPES = [
  'site',
  'building',
  'campus',
  'port',
  'pipeline',
  'vessel',
  'data_center',
  'substation',
  'warehouse',
  'other',
] as const;
export const ENVIRONMENT_STATUSES = ['active', 'inactive', 'maintenance'] as const;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const description = { type: ['string', 'null'], maxLength: 2000 } as const;
const type = { type: 'string', enum: ENVIRONMENT_TYPES, description: 'What kind of site this is.' } as const;
const status = {
  type: 'string',
  enum: ENVIRONMENT_STATUSES,
  description: 'active: monitored; inactive: kept but not monitored; maintenance: monitored, alerts expected.',
} as const;
const location = /* @__PURE__ */ (() =>
  ({ ...latLon, type: ['object', 'null'], description: 'A reference point of the site.' }) as const)();
const address = { type: ['string', 'null'], maxLength: 500 } as const;
const country = {
  type: ['string', 'null'],
  pattern: '^[A-Za-z]{2}$',
  description:
    'The country the site is in, ISO 3166-1 alpha-2 (GB, not UK); kept in upper case. The geopolitical overlay reads it (GET /api/v1/geopolitical-risk).',
} as const;

export const environmentCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      name,
      type,
      status: { ...status, default: 'active' },
      description,
      location,
      address,
      country,
    },
    required: ['name', 'type'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const environmentUpdate = {
  type: 'object',
  properties: { name, type, status, description, location, address, country },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const environmentResponse = {
  type: 'object',
  properties: {
    environment_id: uuid,
    tenant_id: uuid,
    name: { type: 'string' },
    type,
    status,
    description,
    location,
    address,
    country,
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: [
    'environment_id',
    'tenant_id',
    'name',
    'type',
    'status',
    'description',
    'location',
    'address',
    'country',
    'created_at',
    'updated_at',
  ],
} as const satisfies JsonSchema;

export const environmentPath = {
  type: 'object',
  properties: { environment_id: uuid },
  required: ['environment_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const environmentListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { ...uuid, description: "The tenant: the caller's own, or any for SUPER_ADMIN." },
      type,
      status,
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const environmentDeleteQuery = {
  type: 'object',
  properties: {
    tenant_id: tenantScope,
    cascade: {
      type: 'boolean',
      default: false,
      description:
        'Also delete everything in the environment (zones, sensors, assets, files and their stored objects). Without it, an environment that is not empty is 409.',
    },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;
