/**
 * The bundles `cdk synth` builds, for the local runtime to serve (`GATEHOUSE_HANDLERS=bundles`,
 * shared/local/handler-files.ts): the stack is synthesized the way `cdk synth` does it (the app's
 * feature flags, GatehouseStack, one esbuild run for every function), and each route's and
 * worker's asset folder is the module the local server imports.
 *
 * Kept under `.build/local-bundles/<digest>/`, where the digest covers every file a bundle is
 * built from (functions/, shared/ but its local runtime, lib/, the package and compiler files):
 * a start with nothing changed reuses them, a change synthesizes again (about a minute on a
 * 2-core machine) and removes the old set.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { App } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildDirectory } from './built-directory.js';
import { GatehouseFunction, PROJECT_ROOT } from './function.js';
import { GatehouseStack } from './gatehouse-stack.js';
import { quietBundling } from './quiet-bundling.js';

export const LOCAL_BUNDLES_ROOT = join(PROJECT_ROOT, '.build', 'local-bundles');

/** What the bundles are built from. shared/local/ never enters a bundle (test/unit/layers.test.ts). */
const INPUT_DIRS = ['functions', 'shared', 'lib'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'cdk.json'];
const EXCLUDED = new Set(['shared/local']);

/** One synthesized function: its construct (whose scope is the route's or worker's construct) and its package. */
export interface SynthesizedFunction {
  construct: GatehouseFunction;
  /** The asset folder: the Lambda package. */
  dir: string;
  /** Its entry, index.mjs. */
  file: string;
  /** NODE_OPTIONS the function runs with. */
  nodeOptions: string;
}

/** Every GatehouseFunction of a synthesized `app` whose output is `outdir`, with its asset folder. */
export function synthesizedFunctions(app: App, outdir: string): SynthesizedFunction[] {
  return app.node.findAll().flatMap((construct) => {
    if (!(construct instanceof GatehouseFunction)) return [];
    const cfn = construct.node.defaultChild as lambda.CfnFunction;
    const code = cfn.code as { s3Key?: string };
    const env = (cfn.environment as { variables?: Record<string, string> } | undefined)?.variables ?? {};
    const dir = join(outdir, `asset.${String(code.s3Key).replace(/\.zip$/, '')}`);
    return [{ construct, dir, file: join(dir, 'index.mjs'), nodeOptions: env.NODE_OPTIONS ?? '' }];
  });
}

/** The app's feature flags, as `cdk synth` reads them from cdk.json. */
export function cdkContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> })
    .context;
}

function inputFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (EXCLUDED.has(path)) return [];
    return entry.isDirectory() ? inputFiles(path) : [path];
  });
}

/** A digest of every file the bundles are built from: paths and contents. */
export function sourceDigest(): string {
  const hash = createHash('sha256');
  const files = [...INPUT_DIRS.flatMap(inputFiles), ...INPUT_FILES].sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(PROJECT_ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

export interface LocalBundles {
  /** Each route's and worker's entry file (index.mjs), by id. */
  files: Record<string, string>;
  /** Whether this call synthesized them (false: reused). */
  synthesized: boolean;
  /** Milliseconds the call took. */
  ms: number;
}

const MANIFEST = 'functions.json';

/**
 * The bundles of the current sources: reused when already synthesized from them, synthesized
 * otherwise. Safe when two processes ask at once: each synthesizes into a folder of its own and
 * the first to finish is kept.
 */
export function ensureLocalBundles(options: { log?: (line: string) => void } = {}): LocalBundles {
  const started = performance.now();
  const digest = sourceDigest();
  const target = join(LOCAL_BUNDLES_ROOT, digest);
  const manifest = join(target, MANIFEST);
  const read = () => {
    const relativeFiles = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>;
    return Object.fromEntries(Object.entries(relativeFiles).map(([id, file]) => [id, join(target, file)]));
  };
  if (existsSync(manifest)) return { files: read(), synthesized: false, ms: Math.round(performance.now() - started) };

  options.log?.(`synthesizing the bundles into ${relative(PROJECT_ROOT, target)} (sources changed or none yet)`);
  mkdirSync(LOCAL_BUNDLES_ROOT, { recursive: true });
  // At the final folder's depth under the project, so the bundles' source maps find their sources.
  buildDirectory(
    target,
    join(LOCAL_BUNDLES_ROOT, 'tmp-'),
    (outdir) => {
      const app = new App({ outdir, context: cdkContext() });
      // The stage only names resources; the bundles are the same for every stage. CDK stages (and
      // so builds) each function's asset as the stack is constructed, not at synth.
      quietBundling(() => {
        new GatehouseStack(app, 'Gatehouse-local', { stage: 'local', deletionProtection: false });
        app.synth();
      });
      const files: Record<string, string> = {};
      for (const fn of synthesizedFunctions(app, outdir))
        files[fn.construct.node.scope!.node.id] = relative(outdir, fn.file);
      writeFileSync(join(outdir, MANIFEST), JSON.stringify(files, null, 2));
    },
    () => existsSync(manifest),
  );
  // Older sets (and the folders of synths that did not finish) go.
  for (const name of readdirSync(LOCAL_BUNDLES_ROOT)) {
    if (name !== digest && !name.startsWith('tmp-'))
      rmSync(join(LOCAL_BUNDLES_ROOT, name), { recursive: true, force: true });
  }
  return { files: read(), synthesized: true, ms: Math.round(performance.now() - started) };
}
