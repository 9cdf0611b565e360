/**
 * The public face of shared/domain/accounts: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './api-keys.js';
export * from './bootstrap.js';
export * from './developer-accounts.js';
export * from './plans.js';
export * from './plan-refusals.js';
export * from './portal.js';
export * from './tenant-config.js';
export * from './tenants.js';
export * from './user-accounts.js';
export * from './users.js';
export * from './registration.js';
