/**
 * The Ajv instance request validators are compiled with: JSON Schema 2020-12 with the standard
 * formats, options from shared/http/request-schemas.ts. Used where schemas are compiled, never by
 * a deployed function: by the build, which turns each route's schemas into standalone code
 * (lib/validators.ts), and by the local runtime (shared/local/validators.ts).
 * test/unit/layers.test.ts checks that no function imports it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { _ } from 'ajv';
import { AJV_OPTIONS, type RequestSchema } from './request-schemas.js';

// ajv-formats is CommonJS: imported from an ES module, its plugin is the module's `default`.
const addFormats = addFormatsModule.default;

/** An Ajv for one coercion mode; `standalone` also keeps the source for standalone code. */
export function requestAjv(coerceTypes: RequestSchema['coerceTypes'], standalone = false): Ajv2020 {
  const ajv = new Ajv2020({
    ...AJV_OPTIONS,
    coerceTypes,
    // Standalone code reads the formats from ajv-formats' module instead of this instance.
    ...(standalone
      ? { code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } }
      : {}),
  });
  addFormats(ajv);
  return ajv;
}

const shared = new Map<RequestSchema['coerceTypes'], Ajv2020>();

/**
 * One Ajv per coercion mode, for a process that compiles many routes' schemas (the local runtime,
 * the isolation suite's planner): each new Ajv compiles the JSON Schema meta-schema again, which
 * was most of the time compiling the route table took (4.5 s, about 1 s with these).
 */
export function sharedRequestAjv(coerceTypes: RequestSchema['coerceTypes']): Ajv2020 {
  let ajv = shared.get(coerceTypes);
  if (!ajv) {
    ajv = requestAjv(coerceTypes);
    shared.set(coerceTypes, ajv);
  }
  return ajv;
}
