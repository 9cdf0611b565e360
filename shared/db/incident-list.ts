/**
 * A tenant's incident list (patterns 28, 28b): row items, one per scope the list filters by
 * (`all`, `status#<s>`, `severity#<v>`, `env#<eid>`, `zone#<zid>`) and order it sorts by, each
 * sort key `<the order's key>#<incident id>`, no index; and per scope a count in a few shards. A
 * page Queries `offset + limit` row keys of one scope in one order, then BatchGets those
 * incidents: it reads about what it answers, however many incidents the tenant holds.
 *
 * A change writes only the rows whose keys move (every change moves the `u` rows: updated_at):
 * the new rows just before its transaction (BatchWriteItem, marked with the version it writes),
 * the counts of the scopes it joins or leaves in it (those it cannot hold just after it:
 * ./incident-list-counts.ts), the rows that go once it is in. So the transaction holds no row
 * however many zones the incident is in, and a row costs one write unit, not two. Meanwhile, or if
 * a step fails, a row may name an incident that does not (yet, or any more) stand where it says:
 * the reader checks each row against its incident and skips one that does not hold
 * (shared/domain/incidents/list.ts), and sweeps one that is stale for good (`sweepRows`).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  severityRank,
  type IncidentSeverity,
  type IncidentStatus,
} from '../vocabulary/incidents.js';
import { log } from '../log.js';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { writeAll } from './events.js';
import { countChanges } from './incident-list-counts.js';
import type { TransactItem } from './transact.js';

export { countOf } from './incident-list-counts.js';

/** What the list needs of an incident to place it. */
export interface Listed {
  tenant_id: string;
  incident_id: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  environment_id: string | null;
  zone_ids: readonly string[];
  escalation_level: number;
  created_at: string;
  updated_at: string;
}

/** The orders: created, updated, severity (rank), status, escalation level. */
export type Order = 'c' | 'u' | 'v' | 's' | 'e';
const ORDERS: readonly Order[] = ['c', 'u', 'v', 's', 'e'];

export const sortKeyOf = (i: Listed, order: Order): string =>
  order === 'c'
    ? i.created_at
    : order === 'u'
      ? i.updated_at
      : order === 'v'
        ? String(severityRank(i.severity))
        : order === 's'
          ? i.status
          : String(i.escalation_level).padStart(2, '0');

/** The scopes an incident is listed in. */
export function scopesOf(i: Listed): string[] {
  const scopes = ['all', `status#${i.status}`, `severity#${i.severity}`];
  if (i.environment_id) scopes.push(`env#${i.environment_id}`);
  for (const z of new Set(i.zone_ids)) scopes.push(`zone#${z}`);
  return scopes;
}

type Row = { PK: string; SK: string };
const rowKey = (r: Row) => `${r.PK}\u0000${r.SK}`;
const rowsOf = (i: Listed | null): Map<string, Row> =>
  new Map(
    (i ? scopesOf(i) : []).flatMap((scope) =>
      ORDERS.map((o) => {
        const row = keys.incidentListRow(i!.tenant_id, scope, o, sortKeyOf(i!, o), i!.incident_id);
        return [rowKey(row), row] as const;
      }),
    ),
  );

/** What a change from `before` (null: a new incident) to `after` does to the list. */
export interface ListChange {
  /** Rows that appear: put before the change's transaction, marked with the version it writes. */
  puts: Row[];
  /** Rows that go: deleted once the transaction is in (the reader skips them meanwhile). */
  deletes: Row[];
  /**
   * The counts of the scopes joined and left: in the transaction, as many as it holds (100 items
   * in all); the rest in a pending item of `version`, applied once it is in (./incident-list-counts.ts).
   */
  counts: TransactItem[];
}

/** What the change writing `version` of an incident does to the list. */
export function listChange(before: Listed | null, after: Listed, version: number): ListChange {
  const was = rowsOf(before);
  const is = rowsOf(after);
  const wasScopes = new Set(before ? scopesOf(before) : []);
  const isScopes = new Set(scopesOf(after));
  const counts = countChanges(
    after.tenant_id,
    after.incident_id,
    version,
    [...isScopes].filter((s) => !wasScopes.has(s)),
    [...wasScopes].filter((s) => !isScopes.has(s)),
  );
  const zonesLast = (a: Row, b: Row) => Number(a.PK.includes('#INCL#zone#')) - Number(b.PK.includes('#INCL#zone#'));
  return {
    puts: [...is].filter(([k]) => !was.has(k)).map(([, r]) => r),
    deletes: [...was]
      .filter(([k]) => !is.has(k))
      .map(([, r]) => r)
      .sort(zonesLast),
    counts,
  };
}

/**
 * Puts row items outside a transaction, each with `v`, the incident version whose change put it.
 */
export const putRows = (puts: readonly Row[], version: number): Promise<void> =>
  writeAll(puts.map((r) => ({ PK: r.PK, SK: r.SK, v: version })));

/**
 * Deletes rows an incident left at `version` or before: each a DeleteItem conditioned on the
 * version that put it, so a row put again by a later change (back to a status it had) stays.
 */
export async function deleteRows(rows: readonly Row[], version: number): Promise<void> {
  await Promise.all(
    rows.map(async (r) => {
      try {
        await db.send(
          new DeleteCommand({
            TableName: TABLE,
            Key: { PK: r.PK, SK: r.SK },
            ConditionExpression: 'attribute_not_exists(v) OR v <= :v',
            ExpressionAttributeValues: { ':v': version },
          }),
        );
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }),
  );
}

/**
 * Deletes rows a reader found stale for good (their incident, at `version`, no longer stands
 * where they say, and they were put by that version's change or before): each conditioned on the
 * version the reader read, so a row that a later change put again meanwhile stays. It never
 * throws: a failure is logged, and the rows are skipped (and swept) by a later reader.
 */
export async function sweepRows(stale: readonly { row: Row; version: number }[]): Promise<void> {
  const byVersion = new Map<number, Row[]>();
  for (const { row, version } of stale) byVersion.set(version, [...(byVersion.get(version) ?? []), row]);
  try {
    await Promise.all([...byVersion].map(([version, rows]) => deleteRows(rows, version)));
  } catch (err) {
    log.warn('stale incident list rows could not be swept; readers skip them', {
      rows: stale.length,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** The rows (and counts) of an incident that has none yet: what the migration writes. */
export const allRowsOf = (i: Listed): Row[] => [...rowsOf(i).values()];

export interface RowRef extends Row {
  incidentId: string;
  sortKey: string;
  /** The incident version whose change put the row. */
  version: number;
}

const refOf = (item: Record<string, unknown>): RowRef => {
  const sk = String(item.SK);
  const cut = sk.lastIndexOf('#');
  return {
    PK: String(item.PK),
    SK: sk,
    incidentId: sk.slice(cut + 1),
    sortKey: sk.slice(0, cut),
    version: Number(item.v ?? 0),
  };
};

/** One Query of a scope's rows: those after `after` or starting with `prefix#`, from `start`. */
async function rowsPage(
  pk: string,
  q: { ascending: boolean; prefix?: string; after?: string; limit?: number; start?: Record<string, unknown> },
): Promise<{ refs: RowRef[]; start: Record<string, unknown> | undefined }> {
  const [condition, values]: [string, Record<string, unknown>] = q.prefix
    ? ['PK = :pk AND begins_with(SK, :p)', { ':pk': pk, ':p': `${q.prefix}#` }]
    : q.after
      ? ['PK = :pk AND SK > :p', { ':pk': pk, ':p': q.after }]
      : ['PK = :pk', { ':pk': pk }];
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: q.ascending,
      ConsistentRead: true,
      Limit: q.limit,
      ExclusiveStartKey: q.start,
    }),
  );
  return { refs: (out.Items ?? []).map(refOf), start: out.LastEvaluatedKey };
}

/** Every row of a scope whose key starts with `prefix` (or every row), in key order. */
async function allRows(pk: string, prefix?: string): Promise<RowRef[]> {
  const refs: RowRef[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await rowsPage(pk, { ascending: true, prefix, start });
    refs.push(...page.refs);
    start = page.start;
  } while (start);
  return refs;
}

/** The values of an order whose keys are few, in ascending order (their ascending pages go value by value). */
const VALUES: Partial<Record<Order, readonly string[]>> = {
  v: INCIDENT_SEVERITIES.map((_, rank) => String(rank)),
  s: [...INCIDENT_STATUSES].sort(),
  // A policy has at most 10 levels (shared/schemas/tenants.ts): levels 0 to 10.
  e: Array.from({ length: 11 }, (_, n) => String(n).padStart(2, '0')),
};

/**
 * Row refs of a scope in an order, key ascending or descending, ties always newest first (by id,
 * descending), as the list always ordered them: `take(n)` gives the next n refs `keep` accepts.
 */
export function rowCursor(
  tenantId: string,
  scope: string,
  order: Order,
  ascending: boolean,
  keep?: (ref: RowRef) => boolean,
  /** Rows the first read asks for (the page's offset and limit), so a page is one Query. */
  firstRead = 10,
) {
  const pk = keys.incidentListPk(tenantId, scope, order);
  const buffered: RowRef[] = [];
  let done = false;
  let after: string | undefined;
  let start: Record<string, unknown> | undefined;
  let valueAt = 0;

  async function fill(want: number): Promise<void> {
    // A filtered walk reads ahead: the rows it keeps are spread out.
    const limit = Math.max(want, keep ? 200 : firstRead);
    firstRead = 10;
    const values = VALUES[order];
    if (!ascending || values) {
      // Descending: key and id both descending. Few keys ascending: each value's rows newest first.
      if (ascending && valueAt >= values!.length) {
        done = true;
        return;
      }
      const page = await rowsPage(pk, {
        ascending: false,
        prefix: ascending ? values![valueAt] : undefined,
        limit,
        start,
      });
      buffered.push(...page.refs);
      start = page.start;
      if (!ascending) done = start === undefined;
      else if (!start) valueAt++;
      return;
    }
    // Times ascending: each group of equal keys newest first; a group is out once the next begins.
    const page = await rowsPage(pk, { ascending: true, after, limit: limit + 1 });
    const { refs } = page;
    if (refs.length === 0) {
      done = true;
      return;
    }
    const lastKey = refs.at(-1)!.sortKey;
    const complete = page.start ? refs.filter((r) => r.sortKey !== lastKey) : refs;
    // One group filling the whole answer: read it whole (equal times are few).
    const group = complete.length > 0 ? complete : await allRows(pk, lastKey);
    buffered.push(...newestFirstInGroups(group));
    after = `${group.at(-1)!.sortKey}#\uffff`;
    if (!page.start && complete.length === refs.length) done = true;
  }

  return {
    async take(n: number): Promise<RowRef[]> {
      const out: RowRef[] = [];
      while (out.length < n) {
        if (buffered.length === 0) {
          if (done) break;
          await fill(n - out.length);
          continue;
        }
        const ref = buffered.shift()!;
        if (!keep || keep(ref)) out.push(ref);
      }
      return out;
    },
  };
}

function newestFirstInGroups(refs: RowRef[]): RowRef[] {
  return [...refs].sort((a, b) =>
    a.sortKey === b.sortKey ? (a.incidentId < b.incidentId ? 1 : -1) : a.sortKey < b.sortKey ? -1 : 1,
  );
}

/** Every incident id a scope lists whose key in `order` starts with `prefix` (a combined filter's second scope). */
export async function idsOf(tenantId: string, scope: string, order: Order, prefix?: string): Promise<Set<string>> {
  return new Set((await allRows(keys.incidentListPk(tenantId, scope, order), prefix)).map((r) => r.incidentId));
}
