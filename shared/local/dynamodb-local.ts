/**
 * DynamoDB Local, the jar that ships inside the npm package `amplify-dynamodb-simulator`, run with
 * the machine's Java on a free port. In memory, or persisted under `dbPath`.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  ChildExitedError,
  freePort,
  startChild,
  waitUntilReady,
  type ChildExit,
  type LocalService,
} from './process.js';

export interface DynamoDbLocalOptions {
  /** Directory that keeps the data across restarts; in memory when absent. */
  dbPath?: string;
  /** Where its output goes. */
  logFile: string;
  /** A given port (a restart keeps the endpoint every client knows); a free one when absent. */
  port?: number;
}

/** Java is not installed (or too old): the message says what to install; print it, no stack. */
export class JavaMissingError extends Error {
  constructor(detail: string) {
    super(
      `DynamoDB Local needs Java 17 or later: ${detail}.\n` +
        'Install it, then run again:\n' +
        '  Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS:         brew install openjdk@17\n' +
        'or point JAVA_HOME at an installed JDK/JRE.',
    );
    this.name = 'JavaMissingError';
  }
}

const MAX_ATTEMPTS = 5;

export async function startDynamoDbLocal(
  options: DynamoDbLocalOptions,
): Promise<LocalService & { pid: number; exited: Promise<ChildExit> }> {
  const emulator = join(
    dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')),
    'emulator',
  );
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';

  // A free port can be taken between probing and binding (two instances starting at once), so a
  // bind failure is retried on a new port.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const args = [
      // The quick compiler (C1) only, for every instance, the test run's long-lived ones included.
      // C2 makes a call 30-45% cheaper once it has compiled it (bin/bench-dynamodb-local.ts: GetItem
      // 0.24 against 0.35 CPU ms), but the service's calls run through so much of DynamoDB Local
      // that it kept compiling: 41 of the shared instances' 168 CPU s in a full run (2026-11-30),
      // most of it in the run's first minutes, when both cores are already busy.
      '-XX:TieredStopAtLevel=1',
      // The serial collector with a young generation of 256 MB: most of what a request allocates
      // dies young. On the isolation suite's file of site routes it took DynamoDB Local from 16.4
      // to 14.2 CPU seconds (the default G1 spends more on its own bookkeeping on two cores).
      '-XX:+UseSerialGC',
      '-Xms512m',
      '-Xmn256m',
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      // One database whatever credentials/region a client signs with; otherwise data would be
      // split by AWS_ACCESS_KEY_ID and "vanish" when it changes.
      '-sharedDb',
      '-disableTelemetry',
      ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
    ];
    const child = await startChild({
      name: 'dynamodb-local',
      command: java,
      args,
      cwd: options.dbPath ?? dirname(options.logFile),
      logFile: options.logFile,
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new JavaMissingError(`\`${java}\` was not found`);
      throw error;
    });
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      await waitUntilReady('DynamoDB Local', () => isDynamoDb(endpoint), { child, timeoutMs: 60_000 });
      return { endpoint, pid: child.pid, exited: child.exited, stop: () => child.stop() };
    } catch (error) {
      await child.stop();
      if (error instanceof ChildExitedError) {
        if (/UnsupportedClassVersionError/.test(error.log)) {
          throw new JavaMissingError(`\`${java}\` is too old`);
        }
        if (/BindException|Address already in use/.test(error.log) && attempt < MAX_ATTEMPTS) {
          // The given port is being let go by the instance before: a moment, then the same port.
          if (options.port !== undefined) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
          continue;
        }
      }
      throw error;
    }
  }
}

// DynamoDB Local answers an unsigned request with MissingAuthenticationToken: proof it is this
// server on that port, not whoever else might have grabbed it.
async function isDynamoDb(endpoint: string): Promise<boolean> {
  const response = await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
  const body = await response.text();
  return response.headers.has('x-amzn-requestid') && body.includes('MissingAuthenticationToken');
}
