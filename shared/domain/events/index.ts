/**
 * The public face of shared/domain/events: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './ingest.js';
export * from './manual-reports.js';
export * from './mention-index.js';
export * from './mentions.js';
export * from './publish.js';
export * from './read.js';
export * from './retention.js';
export * from './scoring.js';
export * from './stream-feed.js';
export * from './stream.js';
