/**
 * The route groups of the dashboard and the latency alarms: the API's paths gathered by their
 * first segment (after `/api/v1` or `/v1`) into a few groups of a kind, each with a p99 latency
 * budget. A group is a set of path prefixes, so that a metric filter on the stage's access log
 * (lib/stage-metrics.ts) can tell its requests by `$context.resourcePath` alone.
 *
 * A segment no group names falls in `other` (test/infra/observability.test.ts keeps the route
 * table's segments all placed; the synthetic route tables of the tests land there). Streamed responses (server-sent events, exports) last minutes by design and are
 * left out of the latency figures of their group (not out of its request and error counts).
 */
import type { RouteDef } from '../shared/routes/index.js';

export interface RouteGroupDef {
  readonly id: string;
  readonly description: string;
  /** p99 of API Gateway's response latency over 5 minutes, above which the group's alarm counts a breach. */
  readonly p99BudgetMs: number;
  /** First path segments: `incidents` for `/api/v1/incidents...`, `v1/usage` for `/v1/usage`, `health` for `/health`. */
  readonly segments: readonly string[];
}

export const ROUTE_GROUPS: readonly RouteGroupDef[] = [
  {
    id: 'platform',
    description: 'health, OpenAPI document, docs',
    p99BudgetMs: 1000,
    segments: ['health', 'openapi.json', 'docs'],
  },
  {
    id: 'events',
    description: 'event ingest, the feed, replay, live status, drone callbacks, correlation',
    p99BudgetMs: 2000,
    segments: ['events', 'feed', 'replay', 'live-status', 'drone-callbacks', 'correlation', 'reports'],
  },
  {
    id: 'incidents',
    description: 'incidents, workflows, audit logs, analytics',
    p99BudgetMs: 3000,
    segments: ['incidents', 'workflows', 'audit-logs', 'analytics'],
  },
  {
    id: 'admin',
    description: 'tenants, users, the portal, sites, sensors, assets, integrations, webhooks, agents',
    p99BudgetMs: 3000,
    segments: [
      'portal',
      'users',
      'tenants',
      'environments',
      'zones',
      'sensors',
      'assets',
      'infrastructure',
      'integrations',
      'webhooks',
      'watchlist',
      'agents',
      'threat-libraries',
    ],
  },
  {
    id: 'intel',
    description: 'threat intelligence, risk lookups, feeds and connectors, the data lake (outbound calls, Athena)',
    p99BudgetMs: 10000,
    segments: [
      'threats',
      'threat-intel',
      'threat-score',
      'threat-feed',
      'vessels',
      'cable-risk',
      'space-weather',
      'environmental-risk',
      'internet-health',
      'geopolitical-risk',
      'connectors',
      'data-lake',
    ],
  },
  {
    id: 'developer',
    description: 'the developer API under /v1',
    p99BudgetMs: 5000,
    segments: ['v1/auth', 'v1/usage', 'v1/threat-score', 'v1/vessel-profile', 'v1/cable-risk'],
  },
  {
    id: 'mcp',
    description: 'the MCP endpoint',
    p99BudgetMs: 10000,
    segments: ['mcp'],
  },
];

/** A path's first segment: `incidents` for `/api/v1/incidents/{id}`, `v1/usage` for `/v1/usage`. */
export function firstSegment(path: string): string {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts[1] === 'v1') return parts[2] ?? '';
  if (parts[0] === 'v1') return `v1/${parts[1] ?? ''}`;
  return parts[0] ?? '';
}

/** The path prefix a segment stands for in the access log's resourcePath. */
export function segmentPrefix(segment: string): string {
  if (segment.startsWith('v1/')) return `/${segment}`;
  return ['health', 'openapi.json', 'docs', 'mcp'].includes(segment) ? `/${segment}` : `/api/v1/${segment}`;
}

export interface RouteGroup extends RouteGroupDef {
  readonly routes: readonly RouteDef[];
  /** resourcePath prefixes of the group's routes. */
  readonly prefixes: readonly string[];
  /** resourcePaths of its streamed routes, left out of its latency. */
  readonly streamingPaths: readonly string[];
}

/** Where the segments no group names go. */
export const OTHER_GROUP: RouteGroupDef = {
  id: 'other',
  description: 'paths no group names',
  p99BudgetMs: 3000,
  segments: [],
};

/** The groups that have routes, with them (`other` only if some route needs it); throws on a segment in two groups or a prefix shadowing another group's. */
export function routeGroups(
  routes: readonly RouteDef[],
  groups: readonly RouteGroupDef[] = ROUTE_GROUPS,
): RouteGroup[] {
  const groupOf = new Map<string, string>();
  for (const g of groups)
    for (const segment of g.segments) {
      const other = groupOf.get(segment);
      if (other) throw new Error(`route group segment ${segment} is in both ${other} and ${g.id}`);
      groupOf.set(segment, g.id);
    }
  const unplaced = [...new Set(routes.map((r) => firstSegment(r.path)).filter((s) => !groupOf.has(s)))];
  for (const segment of unplaced) groupOf.set(segment, OTHER_GROUP.id);
  const all = unplaced.length > 0 ? [...groups, { ...OTHER_GROUP, segments: unplaced }] : groups;
  // A filter `resourcePath = "<prefix>*"` also matches a longer segment: it must be of the same group.
  for (const [a, ga] of groupOf)
    for (const [b, gb] of groupOf)
      if (a !== b && ga !== gb && segmentPrefix(b).startsWith(segmentPrefix(a)))
        throw new Error(`route group prefix ${segmentPrefix(a)} (${ga}) would also match ${segmentPrefix(b)} (${gb})`);
  // A group without routes has nothing to count or alarm on.
  return all.flatMap((g) => {
    const mine = routes.filter((r) => groupOf.get(firstSegment(r.path)) === g.id);
    if (mine.length === 0) return [];
    return [
      {
        ...g,
        routes: mine,
        prefixes: g.segments.map(segmentPrefix),
        streamingPaths: [...new Set(mine.filter((r) => r.streaming).map((r) => r.path))],
      },
    ];
  });
}
