/**
 * The public face of shared/domain/webhooks: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './delivery-attempt.js';
export * from './delivery-policy.js';
export * from './dispatch.js';
export * from './legacy-urls.js';
export * from './reads.js';
export * from './replays.js';
export * from './signing.js';
export * from './subscriptions.js';
