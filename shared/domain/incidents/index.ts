/**
 * The public face of shared/domain/incidents: what other contexts, the routes, the functions and the scripts use.
 * Outside this folder, import it from here (functions and tests may reach a module inside); inside
 * it, modules import each other directly (test/unit/layers.test.ts, .dependency-cruiser.cjs).
 * Importing it costs a bundle only what it uses: shared/domain/package.json marks the domain free
 * of side effects (test/infra/tree-shaking.test.ts).
 */
export * from './acknowledgement.js';
export * from './drafts.js';
export * from './event-links.js';
export * from './from-events.js';
export * from './history.js';
export * from './incidents.js';
export * from './lifecycle.js';
export * from './notification-delivery.js';
export * from './public-reports.js';
export * from './sla-scheduler.js';
export * from './transcription.js';
export * from './voice-upload.js';
