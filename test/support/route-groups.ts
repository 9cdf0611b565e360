/**
 * The routes in groups by their OpenAPI tag, for suites that go over every route and are split
 * into one file per group (or a few groups) so a full run spreads them over the workers: the
 * isolation suite (test/isolation/routes-<group>.test.ts) and the fuzzing (test/e2e/fuzz-*.test.ts).
 *
 * Every tag is in exactly one group; test/isolation/coverage.test.ts checks that, and that the
 * files together cover every group once. A route with a new tag fails that test until the tag is
 * given a group here.
 */
import type { RouteDef } from '../../shared/routes/types.js';

export const ROUTE_GROUPS = {
  // Sized to about 2,000 isolation attempts each (13,361 in all at issue 33), so the files take about as long.
  incidents: ['incidents', 'threats', 'analytics', 'replay', 'reports', 'correlation', 'live-status'],
  automation: ['workflows', 'webhooks', 'integrations'],
  accounts: ['portal', 'developer', 'audit-logs', 'users', 'platform', 'tenants', 'agents', 'mcp'],
  events: ['sensors', 'events', 'feed', 'data-lake', 'drones'],
  infrastructure: ['infrastructure', 'connectors', 'threat-libraries'],
  sites: ['vessels', 'zones', 'assets', 'environments', 'watchlist'],
} as const satisfies Record<string, readonly string[]>;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

export const GROUP_NAMES = Object.keys(ROUTE_GROUPS) as RouteGroup[];

/** The groups a tag is in (one, when the table is right). */
export function groupsOfTag(tag: string): RouteGroup[] {
  return GROUP_NAMES.filter((g) => (ROUTE_GROUPS[g] as readonly string[]).includes(tag));
}

export const inGroup = (group: RouteGroup) => (route: Pick<RouteDef, 'tag'>) => groupsOfTag(route.tag).includes(group);
