/**
 * What the infrastructure tests' synths share across processes (each test file runs in its own),
 * kept under `.build/` and keyed so that a stale entry can never be used:
 *
 * - CloudFormation validation (cdk.json's `validateAgainstDefaultRules`): every synth still
 *   validates its templates, but a template whose exact bytes already passed, under the same
 *   dependencies, is not validated again. Starting the validator (a WebAssembly engine and its
 *   rules) is about half of a test file's first synth, and most files synthesize the same app.
 * - The default app's templates, for the tests that read templates alone: synthesized once per
 *   state of the sources (lib/local-bundles.ts's digest, and this folder's synth helpers).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CloudFormationValidatePlugin,
  type IPolicyValidationContext,
  type PolicyValidationPluginReport,
} from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildDirectory, buildOnce, removeOtherBuilds } from '../../lib/built-directory.js';
import { PROJECT_ROOT } from '../../lib/function.js';
import { sourceDigest } from '../../lib/local-bundles.js';

const VALIDATED_ROOT = join(PROJECT_ROOT, '.build', 'cfn-validated');
const TEMPLATES_ROOT = join(PROJECT_ROOT, '.build', 'infra-templates');
/** A pass not seen for this long is forgotten (each is an empty file, named by its digest). */
const FORGET_AFTER_MS = 14 * 24 * 3600 * 1000;

const digest = (...parts: (string | Buffer)[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

/**
 * CDK's own validator, registered on the app in place of the default one (same rules, same
 * report), remembering the templates that passed with no finding at all. The key is the
 * templates' contents with what the validator is told about each stack, and package-lock.json
 * (the validator and its rules come with aws-cdk-lib): any change validates again. A report
 * with findings is never remembered, so CDK reports it on every synth as before.
 */
class RememberedValidation extends CloudFormationValidatePlugin {
  private pruned = false;
  /** Resource types of every template this process has validated or found validated. */
  private readonly types = new Set<string>();

  /**
   * CDK starts its engine with the rules of the resource types in sight and starts it again when
   * a template brings a type it lacks: started for every type seen so far, remembered passes
   * included (the whole app's, usually), it starts once a process, as it did when the whole app
   * was validated first. (A private method of CDK's: without it, only this saving is lost.)
   */
  constructor() {
    super();
    const self = this as unknown as Engine;
    const start = self.initializeEngine;
    if (typeof start !== 'function') return;
    self.initializeEngine = (resourceTypes) => {
      for (const type of resourceTypes) this.types.add(type);
      return start.call(this, new Set(this.types));
    };
  }

  override validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const templates = context.stackTemplates.map((s) => readFileSync(s.templatePath));
    for (const template of templates) {
      const { Resources = {} } = JSON.parse(template.toString('utf8')) as {
        Resources?: Record<string, { Type: string }>;
      };
      for (const resource of Object.values(Resources)) this.types.add(resource.Type);
    }
    const key = digest(
      'cloudformation-validate 1',
      readFileSync(join(PROJECT_ROOT, 'package-lock.json')),
      ...context.stackTemplates.flatMap((s, i) => [
        JSON.stringify([s.stackConstructPath, s.accountId ?? null, s.region ?? null]),
        templates[i]!,
      ]),
    );
    const marker = join(VALIDATED_ROOT, key);
    if (existsSync(marker)) {
      const now = new Date();
      utimesSync(marker, now, now);
      return { success: true, violations: [] };
    }
    const report = super.validate(context);
    if (report.success && report.violations.length === 0) {
      mkdirSync(VALIDATED_ROOT, { recursive: true });
      writeFileSync(marker, '');
      this.prune();
    }
    return report;
  }

  private prune(): void {
    if (this.pruned) return;
    this.pruned = true;
    const before = Date.now() - FORGET_AFTER_MS;
    for (const name of readdirSync(VALIDATED_ROOT)) {
      const path = join(VALIDATED_ROOT, name);
      try {
        if (statSync(path).mtimeMs < before) rmSync(path, { force: true });
      } catch {
        // Another process pruned it first.
      }
    }
  }
}

interface Engine {
  initializeEngine?: (this: unknown, resourceTypes: Set<string>) => unknown;
}

/** One per process, as CDK keeps its default one: the engine, once started, serves every app. */
export const validation = new RememberedValidation();

/**
 * What a test finds through the construct tree, read from it at synth as logical ids: with them,
 * a test that reads templates alone finds a route's or a worker's resources without the app.
 */
export interface ConstructIds {
  /** Logical id, in the parent, of the workers' nested stack resource. */
  workersStackId: string;
  /** The route stacks in order: construct id (the key of `nested`), logical id in the parent. */
  routeStacks: { id: string; logicalId: string }[];
  /** Each route's function by route id: its stack's construct id, its logical id there. */
  routeFunctions: Record<string, { stack: string; logicalId: string }>;
  /**
   * Each worker's function and dead-letter queue by worker id: logical ids in the workers' stack
   * (a worker on a queue has that queue's dead letters, in the parent: none here).
   */
  workerFunctions: Record<string, { function: string; deadLetterQueue?: string }>;
}

/** The templates of one synthesized app, as JSON. */
export interface TemplateSet extends ConstructIds {
  parent: object;
  /** Nested route stack templates by construct id. */
  nested: Record<string, object>;
  workers: object;
}

/** The same set, as assertion Templates. */
export interface Templates extends ConstructIds {
  parent: Template;
  /** Nested route stack templates by construct id (`RoutesTenants`). */
  nested: Map<string, Template>;
  /** The workers' nested stack (shared/workers.ts). */
  workers: Template;
}

const FILE = 'templates.json';

/**
 * The default app's templates: read from `.build/infra-templates/<digest>/` when the sources
 * (lib/local-bundles.ts `sourceDigest`: lib/, shared/, functions/, the package and compiler
 * files, cdk.json) and this folder's synth helpers are what they were built from, synthesized
 * by `build` and kept otherwise. Several processes may build it at once; the first rename wins.
 */
export function cachedTemplates(build: () => TemplateSet): Templates {
  const helpers = ['synth.ts', 'synth-cache.ts'].map((f) => readFileSync(join(PROJECT_ROOT, 'test', 'infra', f)));
  const key = digest('infra templates 1', sourceDigest(), ...helpers).slice(0, 16);
  const target = join(TEMPLATES_ROOT, key);
  const file = join(target, FILE);
  if (!existsSync(file)) {
    mkdirSync(TEMPLATES_ROOT, { recursive: true });
    buildOnce(
      // A temporary entry's name: removeOtherBuilds leaves it to its holder.
      join(TEMPLATES_ROOT, `tmp-lock-${key}`),
      () => existsSync(file),
      () =>
        buildDirectory(
          target,
          join(TEMPLATES_ROOT, 'tmp-'),
          (dir) => writeFileSync(join(dir, FILE), JSON.stringify(build())),
          () => existsSync(file),
        ),
    );
    // Sets of older sources go.
    removeOtherBuilds(TEMPLATES_ROOT, key, 'tmp-');
  }
  const set = JSON.parse(readFileSync(file, 'utf8')) as TemplateSet;
  return {
    ...set,
    parent: Template.fromJSON(set.parent),
    nested: new Map(Object.entries(set.nested).map(([id, t]) => [id, Template.fromJSON(t)])),
    workers: Template.fromJSON(set.workers),
  };
}
