/**
 * How many audit entries a tenant has (docs/data-model.md, pattern 36b), so the audit list's
 * `total` costs the same whatever the tenant holds: one small item per tenant and UTC day,
 * `PK=T#tid#AUDITCOUNT`, `SK=<YYYY-MM-DD>`, whose `n` every transaction that writes entries ADDs
 * to (one update per tenant and day of its entries, however many it writes). `first` is the
 * first entry a day's item counted: on a tenant's earliest item it says where counting began, as
 * entries written before the counts existed are in none; `whole` says there were none (the item
 * of the transaction that created the tenant).
 *
 * A range's total: the items of the days it covers whole; a COUNT Query of the entries of a day it
 * covers in part (at its ends: at most two days' entries); and a COUNT Query of the entries before
 * `first` for a tenant not counted from its start (a range that no longer grows).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { timeIdBound, timeOfId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { db, TABLE } from '../client.js';
import * as keys from '../item-keys.js';
import { forEachPage, queryCount } from '../query.js';
import type { TransactItem } from '../transact.js';

const DAY_MS = 86_400_000;
const LAST_DAY_MS = Date.parse('9999-12-31T00:00:00.000Z');
const dayOf = (id: string) => new Date(timeOfId(id)).toISOString().slice(0, 10);
const dayLow = (day: string) => timeIdBound(Date.parse(`${day}T00:00:00.000Z`), 'low');
const dayHigh = (day: string) => timeIdBound(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS - 1, 'high');

/** The action of the entry that opens a tenant's log: counted from it, a tenant has no entry uncounted. */
const FIRST_ACTION = 'tenant.created';

/** The counts' updates of a transaction's audit entries (the items whose Put is an audit entry). */
export function auditCountUpdates(entries: readonly Record<string, unknown>[]): TransactItem[] {
  const byDay = new Map<string, { tenantId: string; day: string; n: number; first: string; whole: boolean }>();
  for (const entry of entries) {
    const tenantId = String(entry.tenant_id);
    const logId = String(entry.log_id);
    const day = dayOf(logId);
    const key = `${tenantId}/${day}`;
    const c = byDay.get(key) ?? { tenantId, day, n: 0, first: logId, whole: false };
    c.n++;
    if (logId < c.first) c.first = logId;
    c.whole ||= entry.action === FIRST_ACTION;
    byDay.set(key, c);
  }
  return [...byDay.values()].map((c) => ({
    Update: {
      TableName: TABLE,
      Key: keys.auditCount(c.tenantId, c.day),
      UpdateExpression: `ADD n :n SET #first = if_not_exists(#first, :first)${c.whole ? ', whole = :whole' : ''}`,
      ExpressionAttributeNames: { '#first': 'first' },
      ExpressionAttributeValues: { ':n': c.n, ':first': c.first, ...(c.whole ? { ':whole': true } : {}) },
    },
  }));
}

interface DayCount {
  SK: string;
  n: number;
  first: string;
  whole?: boolean;
}

const countPk = (tenantId: TenantId) => keys.auditCount(tenantId, '').PK;

/** The day items from `fromDay` to `toDay`, oldest first. */
async function dayCounts(tenantId: TenantId, fromDay: string, toDay: string): Promise<DayCount[]> {
  const found: DayCount[] = [];
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': countPk(tenantId), ':from': fromDay, ':to': toDay },
    },
    (page) => {
      found.push(...((page.Items ?? []) as DayCount[]));
    },
  );
  return found;
}

async function earliestCount(tenantId: TenantId): Promise<DayCount | undefined> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': countPk(tenantId) },
      Limit: 1,
    }),
  );
  return out.Items?.[0] as DayCount | undefined;
}

/** The entries whose ids are from `lo` to `hi`, both included, counted by a COUNT Query. */
const countIds = (tenantId: TenantId, lo: string, hi: string) =>
  lo > hi ? Promise.resolve(0) : queryCount({ pk: keys.audit(tenantId, '').PK, skBetween: [lo, hi] });

/**
 * How many entries the tenant has from `fromMs` to `toMs` (both included; absent: from the start,
 * to the end); `fromMs` absent reads the tenant's day items from its first.
 */
export async function auditTotal(tenantId: TenantId, fromMs: number | undefined, toMs: number): Promise<number> {
  const lo = timeIdBound(fromMs ?? 0, 'low');
  const hi = timeIdBound(toMs, 'high');
  // A range open to the end: up to the last day an ISO day names (ids reach year 10889).
  const toDay = toMs >= LAST_DAY_MS ? '9999-12-31' : dayOf(hi);
  const [days, earliest] =
    fromMs === undefined
      ? await dayCounts(tenantId, '0000', toDay).then((d) => [d, d[0]] as const)
      : await Promise.all([dayCounts(tenantId, dayOf(lo), toDay), earliestCount(tenantId)]);
  // Entries before counting began: none for a tenant counted from its start.
  const first = earliest?.whole ? '' : (earliest?.first ?? '~');
  const legacyHi = hi < first ? hi : first;
  const legacy =
    first === '' ? 0 : countIds(tenantId, lo, legacyHi).then((n) => n - (first <= hi && first >= lo ? 1 : 0));
  // Counted entries: ids from `cLo` on.
  const cLo = lo > first ? lo : first;
  const parts: Promise<number>[] = [Promise.resolve(legacy)];
  if (cLo <= hi && first !== '~') {
    const firstDay = first === '' ? '' : dayOf(first);
    for (const d of days) {
      const start = d.SK === firstDay && first > dayLow(d.SK) ? first : dayLow(d.SK);
      const from = cLo > start ? cLo : start;
      const to = hi < dayHigh(d.SK) ? hi : dayHigh(d.SK);
      if (from > to) continue;
      // A day taken whole is its count; a day the range takes in part is counted from its entries.
      parts.push(from === start && to === dayHigh(d.SK) ? Promise.resolve(Number(d.n)) : countIds(tenantId, from, to));
    }
  }
  const counts = await Promise.all(parts);
  return counts.reduce((a, b) => a + b, 0);
}
