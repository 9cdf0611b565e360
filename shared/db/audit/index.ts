/**
 * The public face of shared/db/audit: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 */
export * from './digests.js';
export * from './entries.js';
export * from './seal.js';
export * from './counts.js';
