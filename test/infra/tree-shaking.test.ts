/**
 * A handler carries only the schemas its route uses. esbuild drops a module-level value nobody
 * uses only when building it can have no side effect, and to esbuild an object spread, a call, a
 * member read or a template with a value in it may have one. So every schema and vocabulary module
 * wraps such values in a pure function call (`/* @__PURE__ *\/ (() => ({ ... }))()`, see
 * shared/schemas/json-schema.ts): imported for nothing, a module must leave nothing in a bundle.
 * Without that, one route's bundle carried every sibling route's schemas (and the schemas those
 * spread), 15 KB in the webhook reads.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/function.js';

/** Constants such as `16 * 1024` stay (esbuild keeps arithmetic): a few bytes, not a schema. */
const LEFT_OVER_BYTES = 64;

const modules = ['shared/schemas', 'shared/vocabulary'].flatMap((dir) =>
  // Recursive: a context's folder of schemas (shared/schemas/watchlist/) and its face too.
  readdirSync(join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => `${dir}/${f}`),
);

/** Bundles `import './<module>'` alone, minified, and expects next to nothing left of it. */
function expectNothingLeftBy(module: string): void {
  const out = buildSync({
    stdin: { contents: `import './${module}';`, resolveDir: PROJECT_ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  expect(code.length, code.slice(0, 400)).toBeLessThanOrEqual(LEFT_OVER_BYTES);
}

describe('schema and vocabulary modules imported for nothing', () => {
  it.each(modules)('%s leaves nothing in a bundle', (module) => {
    expectNothingLeftBy(module);
  });
});

/**
 * The faces of the domain's contexts (shared/domain/<context>/index.ts) re-export every module a
 * caller outside may use. shared/domain/package.json says its modules have no side effects
 * (`"sideEffects": false`: none runs code when imported), so esbuild drops every module of a face
 * whose exports a bundle does not use, with what it imports (an S3 or Cognito client, a feed's
 * parser): without it, a face cost a bundle up to 400 KB (correlation/get: 437 KB to 840 KB).
 */
const faces = readdirSync(join(PROJECT_ROOT, 'shared/domain'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `shared/domain/${d.name}/index.ts`)
  .sort();

describe("the domain's faces imported for nothing", () => {
  it.each(faces)('%s leaves nothing in a bundle', (face) => {
    expectNothingLeftBy(face);
  });
});
