/**
 * Pure planning over the route table: checks the routes make a deployable API, groups them into
 * nested stacks and fingerprints what the API Gateway deployment must follow. No constructs here,
 * so the rules are testable on their own.
 */
import { createHash } from 'node:crypto';
import type { RouteDef } from '../shared/routes/index.js';

/**
 * Routes per nested stack. Each route costs 6 resources there (function, role, policy, log
 * group, method, permission): 60 routes are 360 of CloudFormation's 500, leaving room for a
 * per-route alarm or two later.
 */
export const MAX_ROUTES_PER_STACK = 60;

/** API Gateway cuts a buffered (non-streaming) integration at 29 s. */
export const MAX_BUFFERED_TIMEOUT_SECONDS = 29;

/** Lambda's and API Gateway's limit for a streamed response. */
export const STREAMING_TIMEOUT_SECONDS = 15 * 60;

export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

export interface RouteGroup {
  /** Construct id of the nested stack, e.g. `RoutesTenants`, `RoutesEventsPart2`. */
  stackId: string;
  tag: string;
  routes: RouteDef[];
}

/** `/a/{b}/c.json`: path parts API Gateway accepts, parameters as `{name}`, no empty part. */
const PATH = /^(\/([A-Za-z0-9._-]+|\{[A-Za-z0-9_]+\}))+$/;

/** Lambda timeout of a route, in seconds. */
export function timeoutOf(route: RouteDef): number {
  return route.streaming ? STREAMING_TIMEOUT_SECONDS : (route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
}

/**
 * Throws, naming the route, on what would only fail at deploy time or silently misbehave:
 * duplicate ids or method+path pairs, malformed paths, timeouts API Gateway would cut.
 */
export function checkRoutes(routes: readonly RouteDef[]): void {
  const ids = new Set<string>();
  const endpoints = new Set<string>();
  for (const route of routes) {
    if (ids.has(route.id)) throw new Error(`route id ${route.id} is used twice`);
    ids.add(route.id);
    const endpoint = `${route.method} ${route.path}`;
    if (endpoints.has(endpoint)) throw new Error(`route ${route.id}: ${endpoint} is declared twice`);
    endpoints.add(endpoint);
    if (route.path !== '/' && !PATH.test(route.path)) {
      throw new Error(`route ${route.id}: path ${route.path} is not a valid API Gateway resource path`);
    }
    if (!route.streaming && timeoutOf(route) > MAX_BUFFERED_TIMEOUT_SECONDS) {
      throw new Error(
        `route ${route.id}: timeoutSeconds ${route.timeoutSeconds} exceeds API Gateway's ` +
          `${MAX_BUFFERED_TIMEOUT_SECONDS} s for a buffered response; stream it or shorten it`,
      );
    }
  }
}

/** `tenants` -> `Tenants`, `threat-libraries` -> `ThreatLibraries`. */
function pascal(tag: string): string {
  return tag
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * One nested stack per tag, in the order tags first appear; a tag with more than
 * MAX_ROUTES_PER_STACK routes spills into `RoutesTagPart2`, `RoutesTagPart3`... Stack ids depend
 * only on the tag, so adding a route to one tag never moves another tag's functions.
 */
export function groupRoutes(routes: readonly RouteDef[]): RouteGroup[] {
  const byTag = new Map<string, RouteDef[]>();
  for (const route of routes) {
    const list = byTag.get(route.tag) ?? [];
    list.push(route);
    byTag.set(route.tag, list);
  }
  const groups: RouteGroup[] = [];
  const stackIds = new Set<string>();
  for (const [tag, tagRoutes] of byTag) {
    const base = `Routes${pascal(tag)}`;
    if (base === 'Routes') throw new Error(`tag "${tag}" has no letters or digits to name a stack after`);
    for (let start = 0, n = 1; start < tagRoutes.length; start += MAX_ROUTES_PER_STACK, n++) {
      const stackId = n === 1 ? base : `${base}Part${n}`;
      if (stackIds.has(stackId)) throw new Error(`tags collide on nested stack name ${stackId}`);
      stackIds.add(stackId);
      groups.push({ stackId, tag, routes: tagRoutes.slice(start, start + MAX_ROUTES_PER_STACK) });
    }
  }
  return groups;
}

/**
 * Changes whenever a method is added, removed or reconfigured, so the API Gateway deployment
 * gets a new logical id and CloudFormation deploys the stage again: methods live in nested
 * stacks, which the deployment's own change detection cannot see.
 */
export function routesFingerprint(routes: readonly RouteDef[]): string {
  const shape = routes
    .map((r) => [r.method, r.path, r.id, Boolean(r.streaming), timeoutOf(r)] as const)
    .sort((a, b) => `${a[1]} ${a[0]}`.localeCompare(`${b[1]} ${b[0]}`));
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
}
