/**
 * A directory several processes may build at once (the local bundles, the tests' response
 * validators): each builds into a temporary folder and renames it into place, so no reader ever
 * sees half of one; when another process's rename came first, its copy is kept and ours goes.
 */
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
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
