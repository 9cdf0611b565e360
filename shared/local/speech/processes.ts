/**
 * Child processes for the offline recogniser: found on PATH up front (so a missing package is a
 * clear SpeechUnavailableError, not an ENOENT from deep inside), run with a timeout and no shell.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The executable's full path, or null when PATH has none. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export class ProcessTimeoutError extends Error {}

/** Runs `file args`; resolves with stdout, rejects with stderr's tail on a failure or a timeout. */
export function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        timeout: Math.max(1, Math.floor(timeoutMs)),
        killSignal: 'SIGKILL',
        maxBuffer: 8 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (error.killed)
          return reject(new ProcessTimeoutError(`${file} did not finish within ${Math.round(timeoutMs)} ms`));
        const tail = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`${file} failed (${error.code ?? error.signal}): ${tail || error.message}`));
      },
    );
  });
}
