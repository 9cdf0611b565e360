/**
 * Stops a child process the tests started (a stack process, `npm start`): SIGTERM, then waits for
 * it to end, at most `boundMs`. The bound's timer is cleared once the child is gone: left pending,
 * it kept vitest's main process alive for its full 20 s after every run of the `bundles` project.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export async function stopChild(child: ChildProcess, boundMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = once(child, 'exit');
  child.kill('SIGTERM');
  let bound: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise((resolve) => (bound = setTimeout(resolve, boundMs)))]);
  clearTimeout(bound);
}
