/**
 * lib/built-directory.ts: the local bundles and the tests' response validators are built by
 * whichever process asks first, and two may build at once. A reader must find a whole build or
 * none, and a failed build must leave nothing behind. A build worth not doing twice is done once
 * while its builder lives (buildOnce).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDirectory, buildOnce, removeOtherBuilds } from '../../lib/built-directory.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

const writing = (text: string) => (dir: string) => writeFileSync(join(dir, 'made'), text);

describe('buildDirectory', () => {
  it('moves a whole build into place, and keeps the first of two builds of the same target', () => {
    root = mkdtempSync(join(tmpdir(), 'built-directory-'));
    const target = join(root, 'set');
    buildDirectory(target, `${target}.tmp-`, writing('first'));
    // A second process, which began before the first was in place, finishes after it.
    buildDirectory(target, `${target}.tmp-`, writing('second'));
    expect(readFileSync(join(target, 'made'), 'utf8')).toBe('first');
    expect(readdirSync(root)).toEqual(['set']);
  });

  it('throws a failed build and leaves nothing behind', () => {
    root = mkdtempSync(join(tmpdir(), 'built-directory-'));
    const target = join(root, 'set');
    expect(() =>
      buildDirectory(target, `${target}.tmp-`, (dir) => {
        writeFileSync(join(dir, 'half'), '');
        throw new Error('the build failed');
      }),
    ).toThrow('the build failed');
    expect(readdirSync(root)).toEqual([]);
  });

  it('throws when the target is taken by something that is not a whole build', () => {
    root = mkdtempSync(join(tmpdir(), 'built-directory-'));
    const target = join(root, 'set');
    buildDirectory(target, `${target}.tmp-`, writing('first'));
    expect(() => buildDirectory(target, `${target}.tmp-`, writing('second'), () => false)).toThrow();
    expect(readdirSync(root)).toEqual(['set']);
  });
});

describe('removeOtherBuilds', () => {
  it("removes the sets of other inputs, and keeps today's and the builds under way", () => {
    root = mkdtempSync(join(tmpdir(), 'built-directory-'));
    for (const name of ['old-digest', 'today', 'tmp-abc123']) mkdirSync(join(root, name));
    writeFileSync(join(root, 'stray-file'), '');
    removeOtherBuilds(root, 'today', 'tmp-');
    expect(readdirSync(root).sort()).toEqual(['tmp-abc123', 'today']);
  });
});

describe('buildOnce', () => {
  const setUp = () => {
    root = mkdtempSync(join(tmpdir(), 'built-directory-'));
    return { lock: join(root, 'tmp-lock-set'), made: join(root, 'made') };
  };

  it('builds when nobody holds the lock, and lets the lock go', () => {
    const { lock, made } = setUp();
    buildOnce(
      lock,
      () => existsSync(made),
      () => writeFileSync(made, 'mine'),
    );
    expect(readFileSync(made, 'utf8')).toBe('mine');
    expect(readdirSync(root)).toEqual(['made']);
  });

  it('waits while a live process holds the lock, until its build is there, and builds nothing', () => {
    const { lock, made } = setUp();
    // The parent of this worker is alive for as long as the test runs.
    writeFileSync(lock, String(process.ppid));
    let looks = 0;
    const builds: string[] = [];
    buildOnce(
      lock,
      () => ++looks === 4,
      () => builds.push('mine'),
    );
    expect(builds).toEqual([]);
    expect(looks).toBe(4);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
    expect(existsSync(made)).toBe(false);
  });

  it('takes over a lock whose process is gone (killed mid-build)', () => {
    const { lock, made } = setUp();
    writeFileSync(lock, String(spawnSync(process.execPath, ['-e', '']).pid));
    buildOnce(
      lock,
      () => existsSync(made),
      () => writeFileSync(made, 'mine'),
    );
    expect(readFileSync(made, 'utf8')).toBe('mine');
    expect(existsSync(lock)).toBe(false);
  });

  it('builds anyway once the wait is over, and leaves the holder its lock', () => {
    const { lock, made } = setUp();
    writeFileSync(lock, String(process.ppid));
    buildOnce(
      lock,
      () => existsSync(made),
      () => writeFileSync(made, 'mine'),
      300,
    );
    expect(readFileSync(made, 'utf8')).toBe('mine');
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
  });
});
