/**
 * The deployed functions' bundles as `cdk synth` builds them (GatehouseStack, esbuild, the same
 * settings), plus two reference bundles built with the very same settings (GatehouseFunction,
 * FunctionBundles):
 *
 * - `floor`: a handler that only builds the DynamoDB document client and sends one GetCommand,
 *   the least any function of this service can be (test/support/bundle-fixtures/floor.ts);
 * - `empty`: a handler that does nothing (test/support/bundle-fixtures/empty.ts).
 *
 * Every function's bundle comes from the local bundles (lib/local-bundles.ts), the set the
 * `bundles` test project serves: reused when built from the current sources, built once
 * otherwise. Only the reference bundles (a few seconds) are built here.
 *
 * Used by the cold-start benchmark (bin/bench-cold-start.ts) and the bundle budget test.
 */
import { quietBundling } from '../../lib/quiet-bundling.js';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { RouteDef } from '../../shared/routes/types.js';
import type { WorkerDef } from '../../shared/workers.js';
import { GatehouseFunction } from '../../lib/function.js';
import {
  cdkContext,
  ensureLocalBundles,
  synthesizeBundles,
  synthesizedFunctions,
  type BundledFunction,
} from '../../lib/local-bundles.js';
import { BUILD_ROOT, FunctionBundles } from '../../lib/function-bundles.js';

export interface Bundle {
  /** Route or worker id, or `floor` / `empty`. */
  name: string;
  kind: 'route' | 'worker' | 'reference';
  /** The bundle's directory (the Lambda package). */
  dir: string;
  /** Its entry, index.mjs. */
  file: string;
  /** Size of index.mjs in bytes (the source map is not loaded unless an error is printed). */
  bytes: number;
  /** NODE_OPTIONS the function runs with. */
  nodeOptions: string;
}

/** A route's or worker's bundle. */
export interface FunctionBundle extends Bundle {
  kind: 'route' | 'worker';
  /** Its esbuild metafile: the inputs it holds, and the bytes each contributes. */
  metafile: string;
}

export interface Bundles {
  functions: FunctionBundle[];
  floor: Bundle;
  empty: Bundle;
  /** Removes what was built here (the reference bundles); the local bundles stay for later runs. */
  dispose(): void;
}

/**
 * The bundle budget against the floor, in KB: the median bundle, and any bundle
 * (test/infra/bundle-budget.test.ts holds it; bin/bench-cold-start.ts prints it; docs/architecture.md
 * says what it is made of).
 */
export const BUNDLE_BUDGET_KB = { median: 285, each: 720 } as const;

export const REFERENCE_HANDLERS = {
  floor: 'test/support/bundle-fixtures/floor.ts',
  empty: 'test/support/bundle-fixtures/empty.ts',
} as const;

/** Every function of the stack (the local bundles: lib/local-bundles.ts) and the two reference bundles. */
export function stackBundles(): Bundles {
  const functions = ensureLocalBundles().functions.map(functionBundle);
  const reference = quietBundling(buildReferences);
  return { functions, ...reference };
}

/**
 * A fresh build of the given routes and workers, in a folder of its own (GatehouseStack of those
 * tables, as `cdk synth` builds it); `dispose` removes it.
 */
export function buildFunctions(tables: { routes: readonly RouteDef[]; workers: readonly WorkerDef[] }): {
  functions: FunctionBundle[];
  dispose(): void;
} {
  const outdir = buildFolder();
  try {
    const functions = synthesizeBundles(outdir, { stage: 'bundles', ...tables }).map(functionBundle);
    return { functions, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

function functionBundle(fn: BundledFunction): FunctionBundle {
  const { id, kind, dir, file, nodeOptions, metafile } = fn;
  return { name: id, kind, dir, file, bytes: statSync(file).size, nodeOptions, metafile };
}

/**
 * At a build's depth under the project, so the bundles' source maps find their sources
 * (lib/function-bundles.ts): a test that imports a bundle in process gets no warning about them.
 */
function buildFolder(): string {
  mkdirSync(BUILD_ROOT, { recursive: true });
  return mkdtempSync(join(BUILD_ROOT, 'test-'));
}

/** The floor and the empty handler, each a GatehouseFunction of a stack of their own. */
function buildReferences(): Pick<Bundles, 'floor' | 'empty' | 'dispose'> {
  const outdir = buildFolder();
  const dispose = () => rmSync(outdir, { recursive: true, force: true });
  try {
    const app = new App({ outdir, context: cdkContext() });
    const reference = new Stack(app, 'Gatehouse-reference');
    const role = new iam.Role(reference, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const logGroup = new logs.LogGroup(reference, 'Logs');
    const referenceBundles = new FunctionBundles(
      Object.entries(REFERENCE_HANDLERS).map(([id, handlerFile]) => ({ id, label: `reference ${id}`, handlerFile })),
    );
    for (const name of Object.keys(REFERENCE_HANDLERS)) {
      new GatehouseFunction(reference, name, {
        code: referenceBundles.code(name),
        description: `reference bundle: ${name}`,
        role,
        logGroup,
        environment: {},
        timeout: Duration.seconds(10),
        memorySize: 512,
        logging: { level: 'info', sampleRate: 0 },
      });
    }
    app.synth();
    const found: Bundle[] = synthesizedFunctions(app, outdir).map(({ construct, dir, file, nodeOptions }) => ({
      name: construct.node.id,
      kind: 'reference',
      dir,
      file,
      bytes: statSync(file).size,
      nodeOptions,
    }));
    const pick = (name: string) => {
      const bundle = found.find((b) => b.name === name);
      if (!bundle) throw new Error(`reference bundle ${name} was not built`);
      return bundle;
    };
    return { floor: pick('floor'), empty: pick('empty'), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
