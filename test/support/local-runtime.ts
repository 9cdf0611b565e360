/**
 * vitest setupFiles: what Lambda and a bundle give a handler (shared/local/compose.ts), before any
 * test file imports one: the global `awslambda` for streaming handlers, and the validator
 * compiler. Nothing here reads the configuration: a test file may still set its own environment
 * (vi.hoisted) before shared/config.ts loads. A test that calls the domain with the local
 * adapters composes them itself (installLocalAdapters).
 */
import { composeLocalRuntime } from '../../shared/local/compose.js';

composeLocalRuntime();
