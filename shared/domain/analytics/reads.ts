/**
 * The analytics routes: a threat time series and a tenant summary, each a constant number of
 * small reads whatever the number of events (docs/analytics.md):
 *
 * - the series: one Query of the scope's event counter items between the window's days (at most
 *   402 items of a day each), and the zone and environment named, read with the caller;
 * - the summary: one Query of the incident counter items of the window's hours and one of the
 *   `all` scope's event counter items, at once.
 */
import { eventCounters, incidentCounters } from '../../db/analytics.js';
import { environmentFrom, environmentKey } from '../../db/environments.js';
import { readItems, type ItemKey, type Prefetched } from '../../db/read-batch.js';
import { SITE_KINDS, siteEntityFrom, siteEntityKey, type Zone } from '../../db/site-entities.js';
import { NotFoundError } from '../../errors.js';
import type { Infer } from '../../schemas/json-schema.js';
import type { analyticsSummaryQuery, analyticsThreatsQuery } from '../../schemas/analytics.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import {
  scopeKey,
  summarize,
  threatSeries,
  windowKeys,
  windowOf,
  type AnalyticsSummary,
  type EventScope,
  type ThreatBucket,
  type Window,
} from './counters.js';
import { ENVIRONMENT_NOT_FOUND } from '../sites/index.js';
import { ZONE_NOT_FOUND } from '../sites/index.js';

export type ThreatsQuery = Infer<typeof analyticsThreatsQuery>;
export type SummaryQuery = Infer<typeof analyticsSummaryQuery>;

const iso = (ms: number) => new Date(ms).toISOString();
const windowFields = (w: Window) => ({ timezone: 'UTC' as const, from_date: iso(w.fromMs), to_date: iso(w.toMs) });

/** The zone and environment a series names, to read with the caller (the route's prefetch). */
export function threatsLookups(tenantId: TenantId, query: { zone_id?: unknown; environment_id?: unknown }): ItemKey[] {
  return [
    ...(typeof query.zone_id === 'string' ? [siteEntityKey(SITE_KINDS.zone, tenantId, query.zone_id)] : []),
    ...(typeof query.environment_id === 'string' ? [environmentKey(tenantId, query.environment_id)] : []),
  ];
}

export interface ThreatTimeSeries {
  tenant_id: TenantId;
  timezone: 'UTC';
  from_date: string;
  to_date: string;
  aggregation: ThreatsQuery['aggregation'];
  zone_id: string | null;
  environment_id: string | null;
  threat_type: string | null;
  buckets: ThreatBucket[];
  total: number;
  avg_threat_score: number | null;
}

/**
 * The tenant's events by when they occurred, in buckets. A zone or environment that is not the
 * tenant's is 404 (another tenant's exactly as an unknown one); a zone of another environment than
 * the one named gives zeros. The narrowest scope is read: the zone, else the environment, else all.
 */
export async function threatTimeSeries(
  tenantId: TenantId,
  q: ThreatsQuery,
  read: Prefetched,
  nowMs = Date.now(),
): Promise<ThreatTimeSeries> {
  const window = windowOf(q, nowMs);
  await readItems(threatsLookups(tenantId, q), read);
  const zone = q.zone_id !== undefined ? siteEntityFrom<Zone>(read, SITE_KINDS.zone, tenantId, q.zone_id) : undefined;
  if (zone === null) throw new NotFoundError(ZONE_NOT_FOUND);
  if (q.environment_id !== undefined && !environmentFrom(read, tenantId, q.environment_id))
    throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  const scope: EventScope = q.zone_id
    ? { kind: 'zone', id: q.zone_id }
    : q.environment_id
      ? { kind: 'environment', id: q.environment_id }
      : { kind: 'all' };
  // A zone of another environment than the one named: nothing is in both.
  const disjoint = zone && q.environment_id !== undefined && zone.environment_id !== q.environment_id;
  const { fromDay, toDay } = windowKeys(window);
  const items = disjoint ? [] : await eventCounters(tenantId, scopeKey(scope), fromDay, toDay);
  return {
    tenant_id: tenantId,
    ...windowFields(window),
    aggregation: q.aggregation,
    zone_id: q.zone_id ?? null,
    environment_id: q.environment_id ?? null,
    threat_type: q.threat_type ?? null,
    ...threatSeries(items, window, q.aggregation, q.threat_type),
  };
}

export type Summary = { tenant_id: TenantId; timezone: 'UTC'; from_date: string; to_date: string } & AnalyticsSummary;

/** The incidents created in the window (as they are now) and the events that occurred in it. */
export async function analyticsSummary(
  tenantId: TenantId,
  q: Pick<SummaryQuery, 'from_date' | 'to_date'>,
  nowMs = Date.now(),
): Promise<Summary> {
  const window = windowOf(q, nowMs);
  const { fromDay, toDay, fromHour, toHour } = windowKeys(window);
  const [incidentItems, eventItems] = await Promise.all([
    incidentCounters(tenantId, fromHour, toHour),
    eventCounters(tenantId, scopeKey({ kind: 'all' }), fromDay, toDay),
  ]);
  return { tenant_id: tenantId, ...windowFields(window), ...summarize(incidentItems, eventItems, window) };
}
