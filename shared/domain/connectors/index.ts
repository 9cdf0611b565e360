/**
 * The public face of shared/domain/connectors: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './connector-settings.js';
export * from './connector-view.js';
export * from './environmental-risk.js';
export * from './feed-catalog.js';
export * from './feed-sources.js';
export * from './geopolitical-risk.js';
export * from './lake-export.js';
export * from './poll-connector.js';
export * from './poll-feed.js';
export * from './routing-feeds.js';
export * from './space-weather.js';
export * from './threat-feed.js';
