/**
 * A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). Kept loose on purpose: schemas are data.
 *
 * A module-level schema built with a spread, a call, a member read or a template with a value in
 * it is written `/* @__PURE__ *\/ (() => ({ ... } as const satisfies JsonSchema))()`: esbuild
 * cannot tell such an expression has no side effect, so without the pure call it would keep the
 * schema (and all it spreads) in every bundle that imports any other export of the module
 * (test/infra/tree-shaking.test.ts).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { AssetGeometry, Geofence } from './geo-types.js';

export type JsonSchema = { readonly [key: string]: unknown };

/** A GeoJSON position: [longitude, latitude] with an optional altitude. */
type Position = [number, number] | [number, number, number];

/**
 * Schemas typed by hand instead of inferred, matched by shape: GeoJSON (positions inside rings
 * inside polygons, and the geofence's branches) is deeper than the compiler's
 * instantiation limit. The schemas still validate every level. Every matching pattern applies
 * (their outputs intersect), so the nullable and the plain form of a shape must not both match.
 */
type Patterns = [
  { pattern: { title: 'Geofence'; type: readonly ['object', 'null'] }; output: Geofence | null },
  { pattern: { title: 'Geofence'; type: 'object' }; output: Geofence },
  { pattern: { title: 'Geometry'; type: readonly ['object', 'null'] }; output: AssetGeometry | null },
  { pattern: { title: 'Geometry'; type: 'object' }; output: AssetGeometry },
  { pattern: { type: 'array'; prefixItems: readonly unknown[] }; output: Position },
];

/**
 * The type of what `S` accepts, inferred from the schema itself (json-schema-to-ts), after
 * validation: properties with a default are present. The one source of input types: a schema
 * written `as const` gives the type its route's function and the domain receive.
 */
export type Infer<S> = S extends JSONSchema ? FromSchema<S, { deserialize: Patterns }> : never;

/**
 * What a caller may pass where `S` is the contract: as `Infer`, but a property with a default may
 * be left out (the domain applies the same default for callers that are not HTTP requests).
 */
export type InputOf<S> = S extends JSONSchema
  ? FromSchema<S, { deserialize: Patterns; keepDefaultedPropertiesOptional: true }>
  : never;
