/**
 * vitest setupFiles, first of each project: a test file starts as it would in a process of its own,
 * though the worker process is reused (`isolate: false`, vitest.config.ts).
 *
 * - Every module of the repository is evaluated again for the file: `shared/config.ts` reads the
 *   environment the file sets (vi.hoisted), and adapters, clients and module state composed by
 *   the file before are not seen. Packages under node_modules (the AWS SDK, CDK, middy) are
 *   Node's own imports, loaded once per worker: that is what the reuse saves.
 * - The environment is put back as the worker started with it: a variable a file set, changed or
 *   deleted does not reach the next file.
 * - What the shared modules keep on `globalThis` (`Symbol.for('gatehouse.…')`: the runtime ports,
 *   such as a composed mailer or the local IAM check's hook on new SDK clients, the local event
 *   bus and queues, the tenant scope) is dropped: the next file composes its own.
 *
 * What is left to each file, as before: to close what it opens (servers, pollers) and to restore
 * what it patches in a package (aws-sdk-client-mock's `mockClient` stubs a client class of the
 * SDK for every file of the worker until `restore()`).
 */
import { vi } from 'vitest';

const started = globalThis as { gatehouseWorkerEnv?: Record<string, string | undefined> };
started.gatehouseWorkerEnv ??= { ...process.env };
const initial = started.gatehouseWorkerEnv;
for (const name of Object.keys(process.env)) if (!(name in initial)) delete process.env[name];
Object.assign(process.env, initial);

const holder = globalThis as unknown as Record<symbol, unknown>;
for (const key of Object.getOwnPropertySymbols(globalThis)) {
  if (key.description?.startsWith('gatehouse.')) delete holder[key];
}

vi.resetModules();
