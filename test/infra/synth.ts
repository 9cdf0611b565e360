/**
 * Synthesizes the stack the way `cdk synth` does (same feature flags from cdk.json), by default
 * without bundling, so a test costs template generation only.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access -- reads synthesised CloudFormation, JSON whose shape CDK owns; the infra tests assert what it finds */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, type Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { quietBundling } from '../../lib/quiet-bundling.js';
import type { RouteDef } from '../../shared/routes/index.js';
import { PROJECT_ROOT } from '../../lib/function.js';
import { GatehouseStack, type GatehouseStackProps } from '../../lib/gatehouse-stack.js';
import { RouteFunction } from '../../lib/route-function.js';
import { cachedTemplates, type ConstructIds, type Templates, validation } from './synth-cache.js';

export type { Templates } from './synth-cache.js';

const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

/** The app, its templates (nested ones by construct id, `RoutesTenants`) and ./synth-cache.ts `ConstructIds`. */
export interface Synthesized extends Templates {
  app: App;
  stack: GatehouseStack;
}

/**
 * `outdir`: where the assembly goes and stays (without it, a temporary folder removed before this
 * returns). Every call builds a new app, and its templates are validated as `cdk synth` validates
 * them (./synth-cache.ts).
 */
export function synth(
  overrides: Partial<GatehouseStackProps> = {},
  options: { bundle?: boolean; outdir?: string } = {},
): Synthesized {
  return quietBundling(() => synthesize(overrides, options));
}

function synthesize(
  overrides: Partial<GatehouseStackProps>,
  options: { bundle?: boolean; outdir?: string },
): Synthesized {
  const bundling = options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] };
  // Without the creation stack trace CDK records for every resource in the assembly's metadata
  // (`cdk synth` records them): the templates are the same byte for byte, no test reads the
  // traces, and capturing them was about a tenth of every synth.
  const traces = { 'aws:cdk:disable-creation-stack-traces': true };
  // Without an `outdir` the assembly (6 MB) is only a way to the templates, read at once: CDK's own
  // temporary folder was never removed, 36 a run.
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'gatehouse-synth-'));
  try {
    const app = new App({ context: { ...cdkJson.context, ...bundling, ...traces }, outdir });
    Validations.of(app).addPlugins(validation);
    const stack = new GatehouseStack(app, 'Gatehouse-test', { stage: 'test', deletionProtection: true, ...overrides });
    const parent = Template.fromStack(stack);
    const nested = new Map(stack.routeStacks.map((s) => [s.node.id, Template.fromStack(s)]));
    return { app, stack, parent, nested, workers: Template.fromStack(stack.workersStack), ...constructIds(stack) };
  } finally {
    if (!options.outdir) rmSync(outdir, { recursive: true, force: true });
  }
}

/** The logical ids tests look up through the construct tree (./synth-cache.ts `ConstructIds`). */
function constructIds(stack: GatehouseStack): ConstructIds {
  const logicalId = (of: Stack, construct: IConstruct) => of.getLogicalId(construct.node.defaultChild as CfnElement);
  // An imported queue (a queue's dead letters, in the parent) has no resource here.
  const ownId = (of: Stack, construct: IConstruct) =>
    construct.node.defaultChild ? logicalId(of, construct) : undefined;
  const routeFunctions: ConstructIds['routeFunctions'] = {};
  for (const routeStack of stack.routeStacks) {
    for (const child of routeStack.node.children) {
      if (child instanceof RouteFunction) {
        routeFunctions[child.node.id] = { stack: routeStack.node.id, logicalId: logicalId(routeStack, child.function) };
      }
    }
  }
  const workers = stack.workersStack;
  return {
    workersStackId: stack.getLogicalId(workers.nestedStackResource!),
    routeStacks: stack.routeStacks.map((s) => ({
      id: s.node.id,
      logicalId: stack.getLogicalId(s.nestedStackResource!),
    })),
    routeFunctions,
    workerFunctions: Object.fromEntries(
      [...workers.workers].map(([id, w]) => [
        id,
        { function: logicalId(workers, w.function), deadLetterQueue: ownId(workers, w.deadLetterQueue) },
      ]),
    ),
  };
}

/**
 * The default app's templates (what `synth()` gives), for a test that reads templates alone: one
 * synth for every test file and run while the sources stay the same (./synth-cache.ts). A test
 * that looks at constructs (the app, the stacks, cdk-nag) calls `synth()`.
 */
export function defaultTemplates(): Templates {
  return cachedTemplates(() => {
    const s = synth();
    return {
      ...constructIds(s.stack),
      parent: s.parent.toJSON(),
      nested: Object.fromEntries([...s.nested].map(([id, t]) => [id, t.toJSON()])),
      workers: s.workers.toJSON(),
    };
  });
}

export function resourceCount(template: Template): number {
  return Object.keys((template.toJSON() as { Resources?: object }).Resources ?? {}).length;
}

export interface NagFinding {
  rule: string;
  severity: string;
  paths: string[];
}

/** cdk-nag AwsSolutions findings that no acknowledgement covers, over the whole app. */
export function nagFindings(app: App): NagFinding[] {
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return report.violations.map((v) => ({
    rule: v.ruleName,
    severity: v.severity ?? 'error',
    paths: v.violatingResources.map((r) => r.constructPath ?? ''),
  }));
}

/** `count` synthetic routes over `tags` tags, handled by the fixture handler. */
export function syntheticRoutes(count: number, tags: number): RouteDef[] {
  const routes: RouteDef[] = [];
  const methods = ['GET', 'POST', 'GET', 'PATCH', 'DELETE'] as const;
  for (let i = 0; i < count; i++) {
    const tag = `group${i % tags}`;
    const n = Math.floor(i / tags);
    const kind = n % methods.length;
    // Paths like the spec's: collection, item, item sub-resources.
    const path =
      kind < 2
        ? `/api/v1/${tag}/c${Math.floor(n / 5)}`
        : `/api/v1/${tag}/c${Math.floor(n / 5)}/{${tag}_id}${kind === 2 ? '' : `/sub${kind}`}`;
    routes.push({
      id: `${tag}.r${n}`,
      method: methods[kind]!,
      path,
      handler: 'test/infra/fixtures/handler.ts',
      access: 'VIEWER',
      tenant: 'credential',
      tag,
      summary: 'synthetic',
      response: { status: 200, description: 'ok' },
      grants: kind === 0 ? { table: 'read' } : { table: 'write', bucket: 'write', eventBus: true },
    });
  }
  return routes;
}

type Json = Record<string, any>;

function resourcesOf(template: Template): Record<string, Json> {
  return (template.toJSON() as { Resources: Record<string, Json> }).Resources;
}

/** Full path of every API Gateway resource of the parent, by logical id (root under `root`). */
function resourcePaths(parent: Template): Map<string, string> {
  const resources = resourcesOf(parent);
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const props = resources[id]!.Properties as Json;
    const parentRef = props.ParentId as Json;
    const prefix = parentRef.Ref ? pathOf(parentRef.Ref as string) : '';
    const path = `${prefix === '/' ? '' : prefix}/${props.PathPart as string}`;
    paths.set(id, path);
    return path;
  };
  for (const [id, r] of Object.entries(resources)) if (r.Type === 'AWS::ApiGateway::Resource') pathOf(id);
  return paths;
}

export interface MethodInfo {
  method: string;
  path: string;
  stack: string;
  /** Logical id of the function the integration invokes, in `stack`. */
  functionId: string;
  integration: Json;
}

/**
 * Every method of the nested stacks, read from the templates alone: the method's ResourceId is a
 * stack parameter, whose value in the parent is the API resource, whose path is rebuilt from
 * its PathPart/ParentId chain.
 */
export function methods(s: Templates): MethodInfo[] {
  const paths = resourcePaths(s.parent);
  const parentResources = resourcesOf(s.parent);
  const found: MethodInfo[] = [];
  for (const routeStack of s.routeStacks) {
    const parameters = parentResources[routeStack.logicalId]!.Properties.Parameters as Record<string, Json>;
    for (const r of Object.values(resourcesOf(s.nested.get(routeStack.id)!))) {
      // A mock answers by itself (the 405s of /mcp); routes' methods invoke functions.
      if (r.Type !== 'AWS::ApiGateway::Method' || (r.Properties.Integration as Json).Type === 'MOCK') continue;
      const value = parameters[(r.Properties.ResourceId as Json).Ref as string]!;
      const path = value.Ref ? paths.get(value.Ref as string)! : '/';
      const uriParts = (r.Properties.Integration.Uri as Json)['Fn::Join'][1] as Json[];
      const fnRef = uriParts.find((p) => p['Fn::GetAtt']) as Json;
      found.push({
        method: r.Properties.HttpMethod as string,
        path,
        stack: routeStack.id,
        functionId: fnRef['Fn::GetAtt'][0] as string,
        integration: r.Properties.Integration as Json,
      });
    }
  }
  return found;
}

export function resourcesOfType(template: Template, type: string): [string, Json][] {
  return Object.entries(resourcesOf(template)).filter(([, r]) => r.Type === type);
}
