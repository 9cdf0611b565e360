/**
 * cognito-local as a child process on a free port. Its state lives in `.cognito/` under its
 * working directory, so the working directory is the data directory we are given.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

export interface CognitoLocalOptions {
  /** Holds `.cognito/config.json` and `.cognito/db/`. */
  directory: string;
  logFile: string;
  /** A given port (a restart keeps the endpoint and so the tokens' issuer); a free one when absent. */
  port?: number;
}

export interface CognitoLocal extends LocalService {
  pid: number;
  exited: Promise<ChildExit>;
  /**
   * What cognito-local writes into `iss` is `<issuerDomain>/<userPoolId>`: the endpoint of the
   * first start on this directory, kept in its config afterwards, so the tokens issued before a
   * restart (cognito-local signs with fixed keys) still verify after it though the port changed.
   * The keys are served at the current endpoint (`jwksUri`).
   */
  issuerDomain: string;
  /** Where the pool's signing keys are now: `<endpoint>/<userPoolId>/.well-known/jwks.json`. */
  jwksUri: (userPoolId: string) => string;
}

const MAX_ATTEMPTS = 5;

export async function startCognitoLocal(options: CognitoLocalOptions): Promise<CognitoLocal> {
  const entry = join(
    dirname(createRequire(import.meta.url).resolve('cognito-local/package.json')),
    'lib',
    'bin',
    'start.js',
  );
  for (let attempt = 1; ; attempt++) {
    // cognito-local cannot report a kernel-chosen port in its tokens (the issuer is read from the
    // config before it listens), so pick one, write it, and retry if someone else took it.
    const port = options.port ?? (await freePort());
    const endpoint = `http://127.0.0.1:${port}`;
    const issuerDomain = writeConfig(options.directory, endpoint);
    const child = await startChild({
      name: 'cognito-local',
      command: process.execPath,
      args: [entry],
      cwd: options.directory,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        // It uses aws-sdk v2 (for triggers we do not use), which prints a warning on every start.
        AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
        DEBUG: '',
      },
      logFile: options.logFile,
    });
    try {
      await waitUntilReady('cognito-local', () => isCognitoLocal(endpoint), {
        child,
        timeoutMs: 30_000,
        intervalMs: 50,
      });
      return {
        endpoint,
        issuerDomain,
        jwksUri: (userPoolId) => `${endpoint}/${userPoolId}/.well-known/jwks.json`,
        pid: child.pid,
        exited: child.exited,
        stop: () => child.stop(),
      };
    } catch (error) {
      await child.stop();
      if (error instanceof ChildExitedError && /EADDRINUSE/.test(error.log) && attempt < MAX_ATTEMPTS) {
        // The given port is being let go by the instance before: a moment, then the same port.
        if (options.port !== undefined) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Merges our settings into `.cognito/config.json`, keeping anything a developer added (triggers).
 * The issuer domain is set once, to the first start's endpoint, and kept: the port changes at
 * each start, the issuer of the tokens must not. Returns the issuer domain.
 */
function writeConfig(directory: string, endpoint: string): string {
  const dir = join(directory, '.cognito');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const tokenConfig = (current.TokenConfig ?? {}) as Record<string, unknown>;
  const issuerDomain = typeof tokenConfig.IssuerDomain === 'string' ? tokenConfig.IssuerDomain : endpoint;
  const next = {
    ...current,
    TokenConfig: { ...tokenConfig, IssuerDomain: issuerDomain },
    // Username = email, as the user pool's UsernameAttributes says; the default, made explicit.
    UserPoolDefaults: { UsernameAttributes: ['email'] },
  };
  writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
  return issuerDomain;
}

async function isCognitoLocal(endpoint: string): Promise<boolean> {
  const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
  const body = (await response.json().catch(() => null)) as { ok?: boolean } | null;
  return response.ok && body?.ok === true;
}
