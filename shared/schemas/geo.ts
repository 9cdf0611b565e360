/** GeoJSON shapes (RFC 7946, longitude first) and the circle geofence. */
import type { JsonSchema } from './json-schema.js';

export type { AssetGeometry, Geofence, LatLon } from './geo-types.js';

export const longitude = { type: 'number', minimum: -180, maximum: 180 } as const;
export const latitude = { type: 'number', minimum: -90, maximum: 90 } as const;

/** [longitude, latitude] or [longitude, latitude, altitude]. */
export const position = {
  type: 'array',
  description: '[longitude, latitude] in WGS 84 degrees, optionally followed by altitude in metres.',
  prefixItems: [longitude, latitude, { type: 'number' }],
  items: { type: 'number' },
  minItems: 2,
  maxItems: 3,
} as const;

/** A point as the API writes it for sensors and environments: named fields, no axis-order doubt. */
export const latLon = {
  type: 'object',
  description: 'A point in WGS 84 degrees.',
  properties: { lat: latitude, lon: longitude },
  required: ['lat', 'lon'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/** Most vertices one geofence may have in all its rings. */
export const MAX_GEOFENCE_VERTICES = 2000;
/** Largest circle geofence, in metres. */
export const MAX_CIRCLE_RADIUS_M = 100_000;

const ring = {
  type: 'array',
  description: 'A closed linear ring: at least four positions, the last equal to the first.',
  items: position,
  minItems: 4,
  maxItems: MAX_GEOFENCE_VERTICES,
} as const;

const polygonCoordinates = {
  type: 'array',
  description: 'The exterior ring first, then any holes.',
  items: ring,
  minItems: 1,
  maxItems: 100,
} as const;

/** A zone's geofence: a GeoJSON Polygon or MultiPolygon (holes allowed), or a circle. */
export const geofence = /* @__PURE__ */ (() =>
  ({
    title: 'Geofence',
    type: 'object',
    description:
      `A GeoJSON Polygon or MultiPolygon (holes allowed; rings closed, not self-intersecting, at most ${MAX_GEOFENCE_VERTICES} vertices in all), ` +
      `or a circle: {"type": "Circle", "center": [lon, lat], "radius_m": metres up to ${MAX_CIRCLE_RADIUS_M}}.`,
    properties: { type: { type: 'string', enum: ['Polygon', 'MultiPolygon', 'Circle'] } },
    required: ['type'],
    examples: [
      { type: 'Circle', center: [10.7522, 59.9139], radius_m: 150 },
      {
        type: 'Polygon',
        coordinates: [
          [
            [10.74, 59.9],
            [10.76, 59.9],
            [10.76, 59.92],
            [10.74, 59.92],
            [10.74, 59.9],
          ],
        ],
      },
    ],
    // One branch per `type`: a client's generator types it as a union (docs/architecture.md).
    discriminator: { propertyName: 'type' },
    oneOf: [
      {
        properties: { type: { const: 'Polygon' }, coordinates: polygonCoordinates },
        required: ['type', 'coordinates'],
        additionalProperties: false,
      },
      {
        properties: {
          type: { const: 'MultiPolygon' },
          coordinates: { type: 'array', items: polygonCoordinates, minItems: 1, maxItems: 100 },
        },
        required: ['type', 'coordinates'],
        additionalProperties: false,
      },
      {
        properties: {
          type: { const: 'Circle' },
          center: position,
          radius_m: { type: 'number', exclusiveMinimum: 0, maximum: MAX_CIRCLE_RADIUS_M },
        },
        required: ['type', 'center', 'radius_m'],
        additionalProperties: false,
      },
    ],
  }) as const satisfies JsonSchema)();

/** Any GeoJSON geometry an asset may have (a point, a cable's line, a building's outline). */
export const assetGeometry = {
  title: 'Geometry',
  type: 'object',
  description: 'A GeoJSON geometry: Point, LineString, Polygon, MultiPoint, MultiLineString or MultiPolygon.',
  properties: {
    type: { type: 'string', enum: ['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon'] },
    coordinates: {
      type: 'array',
      minItems: 1,
      items: {},
      description: 'Nested as the type says: a position is [lon, lat].',
    },
  },
  required: ['type', 'coordinates'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const bbox = {
  type: 'array',
  description: '[west, south, east, north] in degrees.',
  items: { type: 'number' },
  minItems: 4,
  maxItems: 4,
} as const;
