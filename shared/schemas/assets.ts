/** Assets: what a tenant protects (buildings, vessels, cables, gates, ...). */
import { pagingProperties, timestamp, uuid } from './common.js';
import { assetGeometry, latLon } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { SEVERITIES } from './tenants.js';

export const ASSET_TYPES = [
  'building',
  'vessel',
  'cable',
  'pipeline',
  'gate',
  'fence',
  'tower',
  'vehicle',
  'equipment',
  'other',
] as const;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const type = { type: 'string', enum: ASSET_TYPES } as const;
const criticality = { type: 'string', enum: SEVERITIES, description: 'How much its loss would hurt.' } as const;
const description = { type: ['string', 'null'], maxLength: 2000 } as const;
const location = /* @__PURE__ */ (() => ({ ...latLon, type: ['object', 'null'] }) as const)();
const geometry = /* @__PURE__ */ (() => ({ ...assetGeometry, type: ['object', 'null'] }) as const)();

export const assetCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'An asset has a location, a geometry, or both.',
    properties: {
      tenant_id: tenantScope,
      environment_id: uuid,
      name,
      type,
      criticality: { ...criticality, default: 'medium' },
      location,
      geometry,
      description,
    },
    required: ['environment_id', 'name', 'type'],
    // A location, a geometry, or both.
    anyOf: [
      { properties: { location: latLon }, required: ['location'] },
      { properties: { geometry: assetGeometry }, required: ['geometry'] },
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const assetUpdate = {
  type: 'object',
  properties: { name, type, criticality, location, geometry, description },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const assetResponse = {
  type: 'object',
  properties: {
    asset_id: uuid,
    tenant_id: uuid,
    environment_id: uuid,
    name: { type: 'string' },
    type,
    criticality,
    location,
    geometry,
    description,
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: [
    'asset_id',
    'tenant_id',
    'environment_id',
    'name',
    'type',
    'criticality',
    'location',
    'geometry',
    'description',
    'created_at',
    'updated_at',
  ],
} as const satisfies JsonSchema;

export const assetPath = {
  type: 'object',
  properties: { asset_id: uuid },
  required: ['asset_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const assetScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const assetListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, environment_id: uuid, type, criticality, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
