/**
 * vitest setupFiles: what Lambda and a bundle give a handler (shared/local/compose.ts), before any
 * test file imports one: the global `awslambda` for streaming handlers, and the validator
 * compiler. Nothing here reads the configuration: a test file may still set its own environment
 * (vi.hoisted) before shared/config.ts loads. A test that calls the domain with the local
 * adapters composes them itself (installLocalAdapters).
 *
 * The one exception is the audit key's stand-in: every write of an audit entry seals it
 * (shared/db/audit/seal.ts), a test's own writes through the domain included, with the local
 * stack's key file, which it names only when the stack has started (LOCAL_AUDIT_KEY_FILE, read
 * at the first seal).
 */
import { LocalAuditMac } from '../../shared/local/audit-mac.js';
import { composeLocalRuntime } from '../../shared/local/compose.js';
import { setPort } from '../../shared/runtime-ports.js';

composeLocalRuntime();
setPort('auditMac', new LocalAuditMac(() => process.env.LOCAL_AUDIT_KEY_FILE));
