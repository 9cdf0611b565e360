/**
 * The test run's local stack and HTTP server in a process of their own (global-setup.ts starts it
 * on Node's own TypeScript support, ./ts-resolve.mjs); prints one line
 * `gatehouse-test-stack {"baseUrl": ..., "localEnv": {...}}` once it listens, and stops everything
 * on SIGTERM or when its parent goes (stdin closes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalAdmin, localAdminFromEnv } from '../../shared/local/admin.js';
import { startHttpServer, type LocalHttpServer } from '../../shared/local/http-server.js';
import { startLocalStack, type LocalStack } from '../../shared/local/stack.js';
import { SHARED_STACK } from './shared-stack.js';
import { handlersFromEnv } from '../../shared/local/handler-files.js';
import { itemSizeCheckOn, itemSizeWatch, ITEM_SIZES_FILE_ENV, writeItemSizeReport } from './item-size-check.js';

/** Also in global-setup.ts, which must not import this file (importing it starts a stack). */
const READY = 'gatehouse-test-stack ';

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
let stack: LocalStack | undefined;
let server: LocalHttpServer | undefined;
// The item-size check (item-size-check.ts): its report goes to the file global-setup.ts reads.
const sizes = itemSizeCheckOn() ? itemSizeWatch() : undefined;
let stopping: Promise<void> | undefined;
const stop = (code: number) =>
  (stopping ??= (async () => {
    await server?.close();
    const report = await sizes?.report();
    const reportFile = process.env[ITEM_SIZES_FILE_ENV];
    if (reportFile) writeItemSizeReport(reportFile, report);
    await stack?.stop();
    await sizes?.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  })());

process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
process.stdin.on('end', () => void stop(0));
process.stdin.resume();

try {
  process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
  // GATEHOUSE_HANDLERS=bundles: the routes and workers run from the bundles cdk synth builds.
  const files = await handlersFromEnv((line) => console.error(line));
  stack = await startLocalStack({ ...SHARED_STACK, dataDir, files, dynamodbFront: sizes?.front });
  await ensureLocalAdmin(localAdminFromEnv());
  server = await startHttpServer({ port: 0, trustForwardedFor: true, files });
  process.stdout.write(
    `${READY}${JSON.stringify({ baseUrl: server.url, localEnv: { ...stack.env, GATEHOUSE_BASE_URL: server.url } })}\n`,
  );
} catch (error) {
  console.error('the test stack failed to start:', error);
  await stop(1);
}
