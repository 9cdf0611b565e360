/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). Kept loose on purpose: schemas are data. */
export type JsonSchema = { readonly [key: string]: unknown };
