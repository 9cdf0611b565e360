/**
 * vitest setupFiles: the local runtime's composition (shared/local/compose.ts) before any test
 * file imports a handler, so a test can import a handler module directly, as the runtime would
 * load it: the global `awslambda` for streaming handlers, and the validator compiler.
 */
import { composeLocalRuntime } from '../../shared/local/compose.js';

composeLocalRuntime();
