/**
 * lib/built-directory.ts: the local bundles and the tests' response validators are built by
 * whichever process asks first, and two may build at once. A reader must find a whole build or
 * none, and a failed build must leave nothing behind.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDirectory, removeOtherBuilds } from '../../lib/built-directory.js';

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
