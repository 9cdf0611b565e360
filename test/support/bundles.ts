/**
 * Builds the deployed functions' bundles the way `cdk synth` does (GatehouseFunction, esbuild,
 * the same settings), plus two reference bundles built with the very same settings:
 *
 * - `floor`: a handler that only builds the DynamoDB document client and sends one GetCommand,
 *   the least any function of this service can be (test/support/bundle-fixtures/floor.ts);
 * - `empty`: a handler that does nothing (test/support/bundle-fixtures/empty.ts).
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
import { cdkContext, synthesizedFunctions } from '../../lib/local-bundles.js';
import { BUILD_ROOT, FunctionBundles } from '../../lib/function-bundles.js';
import { GatehouseStack } from '../../lib/gatehouse-stack.js';

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

export interface Bundles {
  functions: Bundle[];
  floor: Bundle;
  empty: Bundle;
  /** Removes the build output. */
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

/** Builds every function of the stack (or of the given tables) and the two reference bundles. */
export function buildBundles(options: { routes?: readonly RouteDef[]; workers?: readonly WorkerDef[] } = {}): Bundles {
  return quietBundling(() => build(options));
}

function build(options: { routes?: readonly RouteDef[]; workers?: readonly WorkerDef[] }): Bundles {
  // At a build's depth under the project, so the bundles' source maps find their sources
  // (lib/function-bundles.ts): a test that imports a bundle in process gets no warning about them.
  mkdirSync(BUILD_ROOT, { recursive: true });
  const outdir = mkdtempSync(join(BUILD_ROOT, 'test-'));
  const app = new App({ outdir, context: cdkContext() });
  const stack = new GatehouseStack(app, 'Gatehouse-bundles', {
    stage: 'bundles',
    deletionProtection: false,
    routes: options.routes,
    workers: options.workers,
  });
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

  const found: Bundle[] = synthesizedFunctions(app, outdir).map(({ construct, dir, file, nodeOptions }) => {
    const owner = construct.node.scope!;
    const isReference = owner === reference;
    return {
      name: isReference ? construct.node.id : owner.node.id,
      kind: isReference ? 'reference' : owner.node.scope?.node.id === stack.workersStack.node.id ? 'worker' : 'route',
      dir,
      file,
      bytes: statSync(file).size,
      nodeOptions,
    };
  });
  const pick = (name: string) => {
    const bundle = found.find((b) => b.kind === 'reference' && b.name === name);
    if (!bundle) throw new Error(`reference bundle ${name} was not built`);
    return bundle;
  };
  return {
    functions: found.filter((b) => b.kind !== 'reference'),
    floor: pick('floor'),
    empty: pick('empty'),
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
