/**
 * The layer rules of docs/architecture.md, checked on the sources' imports (static, re-exports and
 * dynamic): what a deployed function may reach, and what it must not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  from: string;
  /** A repository path (`shared/local/compose.ts`) or a package specifier (`ajv`). */
  to: string;
  typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = m[3] ?? m[4]!;
    const to = specifier.startsWith('.')
      ? relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier;
    return { from: file, to, typeOnly: Boolean(m[2]) };
  });
}

const all = [...sources('functions'), ...sources('shared'), ...sources('lib'), ...sources('bin')];
const imports = all.flatMap(importsOf);
/** Code that runs in a deployed function: the handlers and everything shared but the local runtime. */
const isProduction = (file: string) => file.startsWith('functions/') || (file.startsWith('shared/') && !file.startsWith('shared/local/'));
const under = (prefix: string) => (i: Import) => i.to.startsWith(prefix);
const show = (list: Import[]) => list.map((i) => `${i.from} -> ${i.to}`);

describe('layers', () => {
  it('finds the imports it checks', () => {
    // A parser that found nothing would pass every rule below.
    expect(imports.filter((i) => i.from === 'functions/environments/get.ts').map((i) => i.to)).toContain('shared/http/handler.ts');
    expect(imports.some((i) => i.from === 'shared/local/compose.ts' && i.to === 'shared/config.ts')).toBe(true);
  });

  it('no production module imports the local runtime (shared/local)', () => {
    expect(show(imports.filter((i) => isProduction(i.from) && under('shared/local/')(i)))).toEqual([]);
  });

  it('no production module imports the CDK app (lib) or the scripts (bin)', () => {
    expect(show(imports.filter((i) => isProduction(i.from) && (under('lib/')(i) || under('bin/')(i))))).toEqual([]);
  });

  it('no production module compiles schemas: Ajv and its compiler stay in the build and the local runtime', () => {
    const compiles = (i: Import) =>
      !i.typeOnly && (i.to === 'shared/http/ajv.ts' || /^ajv(-formats)?(\/|$)/.test(i.to) || i.to === '@middy/validator/transpile');
    expect(show(imports.filter((i) => isProduction(i.from) && i.from !== 'shared/http/ajv.ts' && compiles(i)))).toEqual([]);
  });

  it('the local runtime is one folder: shared/local is imported only by itself, bin and the tests', () => {
    const outside = imports.filter((i) => under('shared/local/')(i) && !i.from.startsWith('shared/local/') && !i.from.startsWith('bin/'));
    expect(show(outside)).toEqual([]);
  });
});
