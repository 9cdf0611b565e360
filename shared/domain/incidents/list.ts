/**
 * A page of a tenant's incidents (patterns 28, 28b): the row keys of the narrowest scope its
 * filters name, in the order asked, then those incidents by key. A single filter (or none) reads
 * `offset + limit` rows, the page's incidents and the scope's count, whatever the tenant holds.
 * Two or more filters: the narrowest scope (zone, then environment, then status, then severity) is
 * walked in order, keeping the ids the other filters' rows name within it (status and severity:
 * the scope's own rows of that key, so about as many as match; an environment under a zone: the
 * environment's rows), and the total is how many those are.
 *
 * A row that no longer holds is skipped; one stale for good (put by its incident's version read or
 * before, so no change on its way: a clean-up after a change that failed) is swept, its deletes
 * sent once the page is read and awaited with the total, their failure logged (sweepRows).
 */
import { getIncidents, type StoredIncident } from '../../db/incidents.js';
import {
  countOf,
  idsOf,
  rowCursor,
  scopesOf,
  sortKeyOf,
  sweepRows,
  type Order,
  type RowRef,
} from '../../db/incident-list.js';
import { severityRank } from './lifecycle.js';
import type { Infer } from '../../schemas/json-schema.js';
import type { incidentListQuery } from '../../schemas/incidents.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** As validated: paging and sorting defaults filled in. */
export type ListQuery = Infer<typeof incidentListQuery>;

const ORDER_OF: Record<ListQuery['sort_by'], Order> = {
  created_at: 'c',
  updated_at: 'u',
  severity: 'v',
  status: 's',
  escalation_level: 'e',
};

/** The ids of `filter`'s scope that are also in `scope`, from rows of `scope` where it can. */
function membersWithin(tenantId: TenantId, scope: string, filter: string, q: ListQuery): Promise<Set<string>> {
  if (q.status && filter === `status#${q.status}`) return idsOf(tenantId, scope, 's', q.status);
  if (q.severity && filter === `severity#${q.severity}`)
    return idsOf(tenantId, scope, 'v', String(severityRank(q.severity)));
  return idsOf(tenantId, filter, 'c');
}

export async function listPage(tenantId: TenantId, q: ListQuery): Promise<{ items: StoredIncident[]; total: number }> {
  const filters = [
    q.zone_id && `zone#${q.zone_id}`,
    q.environment_id && `env#${q.environment_id}`,
    q.status && `status#${q.status}`,
    q.severity && `severity#${q.severity}`,
  ].filter((f): f is string => Boolean(f));
  const scope = filters[0] ?? 'all';
  const order = ORDER_OF[q.sort_by];
  let total: Promise<number>;
  let keep: ((ref: RowRef) => boolean) | undefined;
  if (filters.length > 1) {
    const sets = await Promise.all(filters.slice(1).map((f) => membersWithin(tenantId, scope, f, q)));
    const [first, ...rest] = sets;
    const both = new Set([...first!].filter((id) => rest.every((s) => s.has(id))));
    keep = (ref) => both.has(ref.incidentId);
    total = Promise.resolve(both.size);
  } else total = countOf(tenantId, scope);

  const cursor = rowCursor(tenantId, scope, order, q.sort_order === 'asc', keep, q.offset + q.limit);
  // The rows before the page are skipped unread beyond their keys.
  await cursor.take(q.offset);
  const items: StoredIncident[] = [];
  const stale: { row: RowRef; version: number }[] = [];
  // A row that no longer holds (an incident in many zones moved on) is skipped: read on to fill the page.
  for (let round = 0; items.length < q.limit && round < 5; round++) {
    const refs = await cursor.take(q.limit - items.length);
    if (refs.length === 0) break;
    const found = await getIncidents(
      tenantId,
      refs.map((r) => r.incidentId),
    );
    for (const ref of refs) {
      const incident = found.get(ref.incidentId);
      if (incident && holds(incident, filters, order, ref)) items.push(incident);
      else if (incident && isStale(incident, scope, order, ref)) stale.push({ row: ref, version: incident.version });
    }
  }
  // Rows are swept once the page is read (a rare case: a clean-up after a change failed).
  const swept = stale.length > 0 ? sweepRows(stale) : undefined;
  const [count] = await Promise.all([total, swept]);
  return { items, total: count };
}

/**
 * Whether a row of `scope` is stale for good: its incident is not there at its key, and the row was
 * put by the incident's version read or an earlier one. A row of a later version may be a change on
 * its way (its rows are put before its transaction): it stays.
 */
function isStale(incident: StoredIncident, scope: string, order: Order, ref: RowRef): boolean {
  const there = scopesOf(incident).includes(scope) && sortKeyOf(incident, order) === ref.sortKey;
  return !there && ref.version <= incident.version;
}

/** Whether a row still says what its incident is: in every scope filtered, at the row's key. */
function holds(incident: StoredIncident, filters: readonly string[], order: Order, ref: RowRef): boolean {
  const scopes = new Set(scopesOf(incident));
  return filters.every((f) => scopes.has(f)) && sortKeyOf(incident, order) === ref.sortKey;
}
