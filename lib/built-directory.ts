/**
 * A directory several processes may build at once (the local bundles, the tests' response
 * validators): each builds into a temporary folder and renames it into place, so no reader ever
 * sees half of one; when another process's rename came first, its copy is kept and ours goes.
 */
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * Builds `target` with `build` (given the temporary folder, a new one whose path starts with
 * `tempPrefix`) and moves it into place. `complete` says whether `target` is already a whole
 * build (by default: it exists). A failed build leaves nothing behind and is thrown.
 */
export function buildDirectory(
  target: string,
  tempPrefix: string,
  build: (dir: string) => void,
  complete: () => boolean = () => existsSync(target),
): void {
  const temp = mkdtempSync(tempPrefix);
  try {
    build(temp);
    try {
      renameSync(temp, target);
    } catch (error) {
      // Another process got there first with the same inputs: its copy is as good as ours.
      if (!complete()) throw error;
      rmSync(temp, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes every entry of `root` but `keep` (the set of today's inputs) and the temporary folders
 * whose names start with `tempName`: those may be another process's build under way.
 */
export function removeOtherBuilds(root: string, keep: string, tempName: string): void {
  for (const name of readdirSync(root)) {
    if (name !== keep && !name.startsWith(tempName)) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** How long a process waits for another's build of the same thing before building it itself. */
const WAIT_MS = 5 * 60 * 1000;

/**
 * Runs `build` unless `done()`, or another process is building the same thing (it holds `lock`):
 * then waits for that one. For builds worth not doing twice: the local bundles (a core for 20-60 s;
 * the bundle budget test asked for them while the `bundles` project's stack was synthesizing
 * them) and the infrastructure tests' templates (files that start together each paid a full synth
 * for one set). A lock whose process is gone is taken over; past `waitMs` this process builds
 * anyway (buildDirectory keeps the first copy). Two processes that find the same dead holder may
 * both take over and both build: work done twice, never a half build. Name the lock like a
 * temporary folder, so removeOtherBuilds leaves it to its holder.
 */
export function buildOnce(lock: string, done: () => boolean, build: () => void, waitMs = WAIT_MS): void {
  const giveUp = Date.now() + waitMs;
  while (!done()) {
    const holder = takeLock(lock);
    if (holder === 'taken' || Date.now() > giveUp) {
      try {
        if (!done()) build();
      } finally {
        if (holder === 'taken') rmSync(lock, { force: true });
      }
      return;
    }
    if (holder === 'gone') continue;
    if (running(holder)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    else rmSync(lock, { force: true });
  }
}

/** Takes the lock, or says which process holds it ('gone': released as it was read). */
function takeLock(lock: string): 'taken' | 'gone' | number {
  // The pid is written first and linked into place: no reader sees the file half written.
  const mine = `${lock}-${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    linkSync(mine, lock);
    return 'taken';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      return Number(readFileSync(lock, 'utf8'));
    } catch (readError) {
      if ((readError as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
      throw readError;
    }
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Whether the lock's holder still runs (lib does not import the local runtime's isAlive: layers.test.ts). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
