/**
 * Every function of a stack built by one esbuild run, then handed to CDK as finished folders.
 *
 * `NodejsFunction` runs one esbuild through npx per function: about 200 processes for this app,
 * 294 s of `cdk synth` on a 2-core machine. Here the stack lists its functions first (routes and
 * workers: lib/gatehouse-stack.ts), and the first function CDK stages builds them all at once
 * with esbuild's API, in process; each function's asset is then a copy of its folder. esbuild
 * splits the work across cores itself.
 *
 * CDK still decides whether to bundle (`cdk synth --exclusively`, or a test's template-only synth,
 * skip it: then nothing is built). Each asset is hashed from its output (AssetHashType.OUTPUT), and
 * the output is deterministic (no absolute paths: source maps are relative to a fixed depth under
 * `.build/`), so two synths of the same tree give the same hashes and `cdk diff` shows nothing.
 *
 * Beside the code, `.build/metafiles/<function>.json` holds each bundle's esbuild metafile (its
 * inputs and the bytes each contributes), for https://esbuild.github.io/analyze/.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildSync, type Metafile } from 'esbuild';
import type { RouteDef } from '../shared/routes/types.js';
import { PROJECT_ROOT } from './function.js';
import { writeValidatorModules } from './validators.js';

/** One function's code: its handler module and what its package needs beyond the bundle. */
export interface FunctionSource {
  /** The route or worker id; names the function's folder, so unique in a stack. */
  readonly id: string;
  /** Names it in errors: `route health`, `worker publish-events`. */
  readonly label: string;
  /** Handler file relative to the repository root, exporting `handler`. */
  readonly handlerFile: string;
  /** A route's function carries the route's request validators, compiled when it is built (lib/validators.ts). */
  readonly route?: RouteDef;
  /** Files under node_modules copied next to index.mjs (`swagger-ui-dist/swagger-ui.css`). */
  readonly packageFiles?: readonly string[];
}

// ESM output has no `require`, `__filename` or `__dirname`; bundled CommonJS dependencies that use
// them (`require` of Node built-ins; ggencoder compares `__filename` with argv to run its self-test)
// get them here. Without `__filename` the AIS decoder's module threw at import: the ingest
// functions failed to load at all (test/infra/bundle-budget.test.ts imports every bundle).
const ESM_REQUIRE_SHIM =
  "import { createRequire } from 'module'; import { fileURLToPath as __ghFileUrlToPath } from 'url'; const require = createRequire(import.meta.url); const __filename = __ghFileUrlToPath(import.meta.url); const __dirname = __ghFileUrlToPath(new URL('.', import.meta.url));";

/**
 * Where builds happen: one folder per build, each function at the same depth below it. A source
 * map names its sources relative to its bundle (`../../../../shared/...`), so a copy of a bundle
 * at that same depth under the project (CDK's assets in `bundleOutdir()`) finds them.
 */
export const BUILD_ROOT = join(PROJECT_ROOT, '.build', 'bundles');
/** The routes' entry modules, beside the builds (their source maps name them). */
const ENTRIES_DIR = join(PROJECT_ROOT, '.build', 'entries');
const VALIDATORS_DIR = join(PROJECT_ROOT, '.build', 'validators');
/** Each function's esbuild metafile, `<id>.json`, written by the latest build that built it. */
export const METAFILES_DIR = join(PROJECT_ROOT, '.build', 'metafiles');
const VALIDATOR_REGISTRY = join(PROJECT_ROOT, 'shared/http/compiled-validators.ts');

export class FunctionBundles {
  private readonly sources = new Map<string, FunctionSource>();
  private built?: string;

  constructor(sources: readonly FunctionSource[]) {
    for (const source of sources) {
      if (this.sources.has(source.id)) throw new Error(`two functions are named ${source.id}`);
      if (!existsSync(join(PROJECT_ROOT, source.handlerFile))) {
        throw new Error(`${source.label}: handler file ${source.handlerFile} does not exist`);
      }
      for (const file of source.packageFiles ?? []) {
        if (!existsSync(join(PROJECT_ROOT, 'node_modules', file))) {
          throw new Error(`${source.label}: node_modules/${file} is missing; run npm install`);
        }
      }
      this.sources.set(source.id, source);
    }
  }

  /**
   * The function's package for CDK: a folder asset whose bundling copies the function's output of
   * the shared build (made on first use). Its handler is `index.handler`.
   */
  code(id: string): lambda.Code {
    if (!this.sources.has(id)) throw new Error(`no function ${id} in this build`);
    return lambda.Code.fromAsset(PROJECT_ROOT, {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Never pulled: the local bundling below always builds, or fails with esbuild's errors.
        image: DockerImage.fromRegistry('gatehouse-builds-locally'),
        // Names the function, so each has its own staging (CDK caches assets by these options).
        command: ['esbuild', id],
        local: { tryBundle: (outputDir) => this.copyTo(id, outputDir) },
      },
    });
  }

  /** Functions of the current build not copied to CDK yet. */
  private uncopied = new Set<string>();

  /**
   * Copies the function's folder to CDK's asset folder, then removes it: the build folder goes
   * when every function is copied (a test worker is killed, not exited, so an exit hook alone
   * left 200 MB a build behind). A function asked for again is built again.
   */
  private copyTo(id: string, outputDir: string): boolean {
    if (this.built && !this.uncopied.has(id)) this.discard();
    const built = this.build();
    cpSync(join(built, id), outputDir, { recursive: true });
    rmSync(join(built, id), { recursive: true, force: true });
    this.uncopied.delete(id);
    if (this.uncopied.size === 0) this.discard();
    return true;
  }

  /** Removes the current build's folder (a function asked for again is built again). */
  private discard(): void {
    if (!this.built) return;
    rmSync(this.built, { recursive: true, force: true });
    builds.delete(this.built);
    this.built = undefined;
  }

  /** Builds every function once, in one esbuild run; returns the build's folder. */
  private build(): string {
    if (this.built) return this.built;
    mkdirSync(BUILD_ROOT, { recursive: true });
    const outdir = mkdtempSync(join(BUILD_ROOT, 'build-'));
    // The copies in cdk.out are what deploys; a build folder left goes with the process.
    removeBuildsAtExit(outdir);
    const entries = ENTRIES_DIR;
    mkdirSync(entries, { recursive: true });
    const entryPoints = [...this.sources.values()].map((source) => ({
      in: entryOf(source, entries),
      out: `${source.id}/index`,
    }));
    const result = buildSync({
      entryPoints,
      outdir,
      bundle: true,
      platform: 'node',
      target: 'node24',
      format: 'esm',
      outExtension: { '.js': '.mjs' },
      // Prefer packages' ES module builds: smaller, and tree-shaken.
      mainFields: ['module', 'main'],
      minify: true,
      // Minifying renames classes; error mapping and logs rely on `err.name`/class names.
      keepNames: true,
      sourcemap: true,
      // Stack traces need the mappings only; leaving sources out halves the .map file.
      sourcesContent: false,
      banner: { js: ESM_REQUIRE_SHIM },
      // Lambda's credentials are in the environment: the SDK's default chain, SSO and STS clients
      // included, stays out (shared/adapters/lambda-credentials.ts).
      alias: {
        '@aws-sdk/credential-provider-node': './shared/adapters/lambda-credentials.ts',
        // Browser polyfills jszip carries; Node has both (shared/adapters/node-builtin.ts).
        lie: './shared/adapters/node-builtin.ts',
        setimmediate: './shared/adapters/node-builtin.ts',
        // jszip's entry streams are readable-stream 2's copy of Node's streams (34 KB): Node's own.
        'readable-stream': 'node:stream',
      },
      // The AWS SDK v3 is bundled, not taken from the runtime: package-lock.json pins the versions
      // the tests ran against, while the runtime's copy changes without notice.
      metafile: true,
      logLevel: 'warning',
      absWorkingDir: PROJECT_ROOT,
    });
    writeMetafiles(result.metafile, outdir);
    for (const source of this.sources.values()) {
      for (const file of source.packageFiles ?? []) {
        cpSync(join(PROJECT_ROOT, 'node_modules', file), join(outdir, source.id, file.split('/').pop()!));
      }
    }
    this.built = outdir;
    this.uncopied = new Set(this.sources.keys());
    return outdir;
  }
}

/** Build folders not removed yet: one exit hook for all of them, however many builds ran. */
const builds = new Set<string>();
let exitHook = false;

function removeBuildsAtExit(dir: string): void {
  builds.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const build of builds) rmSync(build, { recursive: true, force: true });
  });
}

/**
 * The module esbuild starts from. A route's entry runs its validators' installer first, then
 * re-exports the handler: ES modules run in import order, so the validators are in place before
 * the handler module asks for them.
 */
function entryOf(source: FunctionSource, entries: string): string {
  const handler = join(PROJECT_ROOT, source.handlerFile);
  if (!source.route) return handler;
  const installer = writeValidatorModules(source.route, VALIDATORS_DIR, VALIDATOR_REGISTRY);
  const entry = join(entries, `${source.id}.mjs`);
  const from = (file: string) => JSON.stringify(`./${relative(entries, file)}`);
  // Written whole, then renamed: two builds at once (tests) never read half a file.
  const temp = `${entry}.${process.pid}.tmp`;
  writeFileSync(temp, `import ${from(installer)};\nexport { handler } from ${from(handler)};\n`);
  renameSync(temp, entry);
  return entry;
}

/** One metafile per function: its output and the inputs it holds. */
function writeMetafiles(metafile: Metafile, outdir: string): void {
  mkdirSync(METAFILES_DIR, { recursive: true });
  const prefix = `${relative(PROJECT_ROOT, outdir)}/`;
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!path.endsWith('/index.mjs')) continue;
    const id = path.slice(prefix.length, -'/index.mjs'.length);
    const inputs = Object.fromEntries(Object.keys(output.inputs).map((input) => [input, metafile.inputs[input]]));
    const own = { inputs, outputs: { [`${id}/index.mjs`]: output } };
    writeFileSync(join(METAFILES_DIR, `${id}.json`), JSON.stringify(own));
  }
}
