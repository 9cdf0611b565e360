/**
 * `npm start`: the whole service on http://127.0.0.1:$PORT, through the very Lambda handlers,
 * against DynamoDB Local, s3rver and cognito-local started here on free ports, with data kept under
 * GATEHOUSE_DATA_DIR. The local stand-ins stop with it (by their PIDs).
 */
import { resolve } from 'node:path';
import { ensureLocalAdmin, localAdminFromEnv } from '../shared/local/admin.js';
import { JavaMissingError } from '../shared/local/dynamodb-local.js';
import type { LocalHttpServer } from '../shared/local/http-server.js';
import { startHttpServer } from '../shared/local/http-server.js';
import { startLocalStack, type LocalStack } from '../shared/local/stack.js';
import { handlersFromEnv } from '../shared/local/handler-files.js';

const port = parsePort(process.env.PORT ?? '3000');
const dataDir = resolve(process.env.GATEHOUSE_DATA_DIR || '.data');

let stack: LocalStack | undefined;
let http: LocalHttpServer | undefined;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await http?.close();
    await stack?.stop();
  }
  process.exit(code);
}

// `npm start` runs this under npm and a shell: stopping npm (SIGTERM to it) ends the shell but
// does not reach this process, which would keep the port and the data directory. So it also
// stops when its parent goes (it is handed to another parent then).
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop(0);
}, 1000).unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second Ctrl-C while stopping: leave at once (children are killed by the exit hook).
    if (stopping) process.exit(130);
    void stop(0);
  });
}

try {
  const t0 = performance.now();
  // Workers to leave stopped (an operator's drill: what the live status and the agents show then).
  const stoppedWorkers = (process.env.GATEHOUSE_STOPPED_WORKERS ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  // GATEHOUSE_HANDLERS=bundles: the bundles cdk synth builds, synthesized first when stale.
  const files = await handlersFromEnv(log);
  log(`starting the local AWS stand-ins (data in ${dataDir}, logs in ${dataDir}/logs)`);
  stack = await startLocalStack({
    dataDir,
    persist: true,
    stoppedWorkers,
    files,
    progress: (part, ms) => log(`  ${(ms / 1000).toFixed(1).padStart(5)} s  ${part}`),
  });
  log(`local AWS stand-ins ready in ${Math.round(performance.now() - t0)} ms`);
  log(`  mail: each message kept in ${stack.env.LOCAL_MAIL_DIR}`);

  const admin = localAdminFromEnv();
  const { created } = await ensureLocalAdmin(admin);
  log(created ? `created the platform administrator ${admin.email}` : `platform administrator ${admin.email} present`);

  http = await startHttpServer({ port, host: '127.0.0.1', logOwnResponses: true, files });
  // The exact line scripts and tests wait for.
  console.log(`listening on ${http.url}`);
} catch (error) {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
  } else if (isAddressInUse(error)) {
    console.error(`port ${port} is in use: set PORT to a free port (and GATEHOUSE_DATA_DIR for a second instance)`);
  } else {
    console.error('failed to start:', error);
  }
  await stop(1);
}

function log(message: string): void {
  console.error(message);
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`PORT must be a port number, not "${value}"`);
    process.exit(1);
  }
  return n;
}

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}
