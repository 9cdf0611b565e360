/**
 * The public face of shared/domain/infrastructure: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './area-search.js';
export { extractStreamed, STREAM_LIMITS } from './background.js';
export * from './extract.js';
export * from './files.js';
export * from './line-data.js';
export * from './line-index.js';
export * from './line-search.js';
export * from './lines.js';
export * from './presigned.js';
export * from './status.js';
export { collectionBytes } from './storage.js';
export * from './upload-url.js';
export * from './upload.js';
