/**
 * The bundles `cdk synth` builds, for the local runtime to serve (`GATEHOUSE_HANDLERS=bundles`,
 * shared/local/handler-files.ts): the stack is synthesized the way `cdk synth` does it (the app's
 * feature flags, GatehouseStack, one esbuild run for every function), and each route's and
 * worker's asset folder is the module the local server imports.
 *
 * Kept under `.build/local-bundles/<digest>/`, where the digest covers every file a bundle is
 * built from (functions/, shared/ but its local runtime, lib/, the package and compiler files):
 * a start with nothing changed reuses them, a change synthesizes again (about a minute on a
 * 2-core machine) and removes the old set. Its manifest (`functions.json`) lists each function:
 * its id, whether a route or a worker, its entry, its NODE_OPTIONS and its esbuild metafile (a
 * copy in the set, so the set says what its own bundles hold): what the local server serves and
 * what the bundle budget test (test/infra/bundle-budget.test.ts) measures, one build for both.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { App } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { RouteDef } from '../shared/routes/types.js';
import type { WorkerDef } from '../shared/workers.js';
import { buildDirectory, buildOnce, removeOtherBuilds } from './built-directory.js';
import { GatehouseFunction, PROJECT_ROOT } from './function.js';
import { METAFILES_DIR } from './function-bundles.js';
import { GatehouseStack } from './gatehouse-stack.js';
import { quietBundling } from './quiet-bundling.js';
import { RouteFunction } from './route-function.js';
import { WorkerFunction } from './worker-function.js';

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

/** One route's or worker's bundle, as the manifest lists it (paths absolute once read). */
export interface BundledFunction {
  /** The route or worker id. */
  id: string;
  kind: 'route' | 'worker';
  /** The asset folder: the Lambda package (`asset.<hash of its contents>`). */
  dir: string;
  /** Its entry, index.mjs. */
  file: string;
  /** NODE_OPTIONS the function runs with. */
  nodeOptions: string;
  /** Its esbuild metafile (lib/function-bundles.ts): the inputs the bundle holds. */
  metafile: string;
}

/**
 * Synthesizes GatehouseStack (of the given tables, every function by default) into `outdir` the
 * way `cdk synth` does, and lists its routes' and workers' bundles, each metafile copied to
 * `outdir/metafiles/`. The stage only names resources: the bundles are the same for every stage.
 */
export function synthesizeBundles(
  outdir: string,
  options: { stage: string; routes?: readonly RouteDef[]; workers?: readonly WorkerDef[] },
): BundledFunction[] {
  const app = new App({ outdir, context: cdkContext() });
  // CDK stages (and so builds) each function's asset as the stack is constructed, not at synth.
  quietBundling(() => {
    new GatehouseStack(app, `Gatehouse-${options.stage}`, {
      stage: options.stage,
      deletionProtection: false,
      routes: options.routes,
      workers: options.workers,
    });
    app.synth();
  });
  const metafiles = join(outdir, 'metafiles');
  mkdirSync(metafiles, { recursive: true });
  return synthesizedFunctions(app, outdir).map(({ construct, dir, file, nodeOptions }) => {
    const owner = construct.node.scope;
    if (!(owner instanceof RouteFunction) && !(owner instanceof WorkerFunction))
      throw new Error(`${construct.node.path} is neither a route's nor a worker's function`);
    const id = owner.node.id;
    // Written by this synth's esbuild run just now (or by another build of the same sources since).
    const metafile = join(metafiles, `${id}.json`);
    cpSync(join(METAFILES_DIR, `${id}.json`), metafile);
    return { id, kind: owner instanceof WorkerFunction ? 'worker' : 'route', dir, file, nodeOptions, metafile };
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

/**
 * The manifest's format, in the digest: a set whose manifest an older version of this module
 * wrote (format 1 listed only each id's entry) lives under another digest, so it is built again.
 */
const MANIFEST_FORMAT = 2;

/** A digest of every file the bundles are built from (paths and contents), and of the manifest's format. */
export function sourceDigest(): string {
  const hash = createHash('sha256');
  hash.update(`manifest format ${MANIFEST_FORMAT}\0`);
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
  /** Each route's and worker's bundle. */
  functions: BundledFunction[];
  /** Whether this call synthesized them (false: reused). */
  synthesized: boolean;
  /** Milliseconds the call took. */
  ms: number;
}

const MANIFEST = 'functions.json';

/**
 * The bundles of the current sources: reused when already synthesized from them, synthesized
 * otherwise. Safe when two processes ask at once: the second waits for the first's set
 * (buildOnce), and a set is built in a folder of its own and renamed into place whole.
 */
export function ensureLocalBundles(options: { log?: (line: string) => void } = {}): LocalBundles {
  const started = performance.now();
  const digest = sourceDigest();
  const target = join(LOCAL_BUNDLES_ROOT, digest);
  const manifest = join(target, MANIFEST);
  const read = (synthesized: boolean): LocalBundles => {
    const listed = JSON.parse(readFileSync(manifest, 'utf8')) as { functions: BundledFunction[] };
    const functions = listed.functions.map((fn) => ({
      ...fn,
      dir: join(target, fn.dir),
      file: join(target, fn.file),
      metafile: join(target, fn.metafile),
    }));
    const files = Object.fromEntries(functions.map((fn) => [fn.id, fn.file]));
    return { files, functions, synthesized, ms: Math.round(performance.now() - started) };
  };
  if (existsSync(manifest)) return read(false);

  mkdirSync(LOCAL_BUNDLES_ROOT, { recursive: true });
  let synthesized = false;
  // A second process that asks meanwhile waits for this one's set instead of building another.
  buildOnce(
    join(LOCAL_BUNDLES_ROOT, `tmp-lock-${digest}`),
    () => existsSync(manifest),
    () => {
      synthesizeInto(target, manifest, options.log);
      synthesized = true;
    },
  );
  // Older sets go.
  if (synthesized) removeOtherBuilds(LOCAL_BUNDLES_ROOT, digest, 'tmp-');
  return read(synthesized);
}

/** Synthesizes the bundles into `target` (a temporary folder, renamed into place when whole). */
function synthesizeInto(target: string, manifest: string, log?: (line: string) => void): void {
  log?.(`synthesizing the bundles into ${relative(PROJECT_ROOT, target)} (sources changed or none yet)`);
  // At the final folder's depth under the project, so the bundles' source maps find their sources.
  buildDirectory(
    target,
    join(LOCAL_BUNDLES_ROOT, 'tmp-'),
    (outdir) => {
      const functions = synthesizeBundles(outdir, { stage: 'local' }).map((fn) => ({
        ...fn,
        dir: relative(outdir, fn.dir),
        file: relative(outdir, fn.file),
        metafile: relative(outdir, fn.metafile),
      }));
      writeFileSync(join(outdir, MANIFEST), JSON.stringify({ format: MANIFEST_FORMAT, functions }, null, 2));
    },
    () => existsSync(manifest),
  );
}
