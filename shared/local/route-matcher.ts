/**
 * Matches a request path against the route table's `{param}` templates the way API Gateway's
 * resource tree does: the most specific resource wins (a literal segment beats a parameter at the
 * first place they differ, so `/events/stream` beats `/events/{event_id}`), then the method is
 * looked up on that resource only.
 */
import type { RouteDef } from '../routes/types.js';

type Segment = { literal: string } | { param: string; greedy: boolean };

interface Resource {
  template: string;
  segments: Segment[];
  byMethod: Map<string, RouteDef>;
}

export type MatchResult =
  | { kind: 'found'; route: RouteDef; pathParameters: Record<string, string> | null }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }
  /** A percent-encoding that does not decode (`%zz`). */
  | { kind: 'bad-path' };

export class RouteMatcher {
  private readonly resources: Resource[] = [];

  constructor(routes: readonly RouteDef[]) {
    const byTemplate = new Map<string, Resource>();
    for (const route of routes) {
      let resource = byTemplate.get(route.path);
      if (!resource) {
        resource = { template: route.path, segments: parseTemplate(route.path), byMethod: new Map() };
        byTemplate.set(route.path, resource);
        this.resources.push(resource);
      }
      if (resource.byMethod.has(route.method)) {
        throw new Error(
          `two routes for ${route.method} ${route.path}: ${resource.byMethod.get(route.method)?.id} and ${route.id}`,
        );
      }
      resource.byMethod.set(route.method, route);
    }
  }

  match(method: string, path: string): MatchResult {
    const parts = splitPath(path);
    let best: { resource: Resource; rank: number[]; raw: Record<string, string> } | undefined;
    for (const resource of this.resources) {
      const raw = matchSegments(resource.segments, parts);
      if (!raw) continue;
      const rank = resource.segments.map((s) => ('literal' in s ? 2 : s.greedy ? 0 : 1));
      if (!best || compareRank(rank, best.rank) > 0) best = { resource, rank, raw };
    }
    if (!best) return { kind: 'not-found' };
    const route = best.resource.byMethod.get(method);
    if (!route) return { kind: 'method-not-allowed', allow: [...best.resource.byMethod.keys()].sort() };
    const entries = Object.entries(best.raw);
    if (entries.length === 0) return { kind: 'found', route, pathParameters: null };
    try {
      return {
        kind: 'found',
        route,
        pathParameters: Object.fromEntries(entries.map(([k, v]) => [k, decodeURIComponent(v)])),
      };
    } catch {
      return { kind: 'bad-path' };
    }
  }
}

function parseTemplate(template: string): Segment[] {
  return splitPath(template).map((part) => {
    const param = /^\{([A-Za-z0-9_]+)(\+?)\}$/.exec(part);
    return param ? { param: param[1] ?? '', greedy: param[2] === '+' } : { literal: part };
  });
}

function splitPath(path: string): string[] {
  return path.replace(/^\//, '').split('/');
}

/** Raw (still percent-encoded) parameter values, or undefined when the path does not fit. */
function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i];
    if (segment === undefined || part === undefined) return undefined;
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
    } else if (segment.greedy) {
      // `{name+}` takes the rest of the path; only meaningful as the last segment.
      const rest = parts.slice(i).join('/');
      if (rest === '') return undefined;
      params[segment.param] = rest;
      return params;
    } else {
      if (part === '') return undefined;
      params[segment.param] = part;
    }
  }
  return parts.length === segments.length ? params : undefined;
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}
