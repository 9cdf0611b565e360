/**
 * Where the local runtime finds the handler of each route and worker: the TypeScript sources
 * (the default, run through tsx) or the bundles `cdk synth` builds for Lambda
 * (`GATEHOUSE_HANDLERS=bundles`, lib/local-bundles.ts), so the form that deploys is the form that
 * answers. The local server, the stream poller and the worker runners all ask here.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setPort } from '../runtime-ports.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type HandlerKind = 'sources' | 'bundles';

export interface HandlerFiles {
  kind: HandlerKind;
  /** The module to import for a route or worker: its id, and its handler's source path (repository-relative). */
  fileOf(fn: { id: string; handler: string }): string;
}

/** The sources, under `rootDir` (the repository by default; tests mount handlers of their own). */
export function sourceHandlers(rootDir: string = REPO_ROOT): HandlerFiles {
  return { kind: 'sources', fileOf: (fn) => resolve(rootDir, fn.handler) };
}

/** The bundles: each function's entry file (index.mjs of its synthesized asset), by route or worker id. */
export function bundleHandlers(files: Readonly<Record<string, string>>): HandlerFiles {
  return {
    kind: 'bundles',
    fileOf: (fn) => {
      const file = files[fn.id];
      if (!file) throw new Error(`no bundle was synthesized for ${fn.id} (${fn.handler}): synthesize again`);
      return file;
    },
  };
}

/** Says which handlers this process serves, for /health (shared/domain/operations/health.ts). */
export function announceHandlers(files: HandlerFiles): void {
  setPort('handlers', files.kind);
}

/**
 * The handlers `GATEHOUSE_HANDLERS` asks for: `sources` (the default) or `bundles`, synthesized
 * first when missing or older than the sources (lib/local-bundles.ts; the CDK app is loaded only then).
 */
export async function handlersFromEnv(log: (line: string) => void = () => {}): Promise<HandlerFiles> {
  const wanted = process.env.GATEHOUSE_HANDLERS || 'sources';
  if (wanted === 'sources') return sourceHandlers();
  if (wanted !== 'bundles') throw new Error(`GATEHOUSE_HANDLERS must be sources or bundles, not "${wanted}"`);
  const { ensureLocalBundles } = await import('../../lib/local-bundles.js');
  const bundles = ensureLocalBundles({ log });
  log(
    `serving the bundles cdk synth builds (${Object.keys(bundles.files).length} functions, ${bundles.synthesized ? 'synthesized' : 'reused'} in ${bundles.ms} ms)`,
  );
  return bundleHandlers(bundles.files);
}
