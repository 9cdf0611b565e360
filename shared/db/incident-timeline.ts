/**
 * An incident's timeline (pattern 27b): one small item per entry in the incident's partition, put
 * in the transaction of the change that adds it, so the incident item stays small and a change
 * writes only its new entries. The incident item keeps what its view needs of the past: the status
 * changes (`history`, which `viewOf` folds into transitions and time figures).
 *
 * Items of before (no `layout`) hold their whole timeline in `history`; a change of one puts its
 * new entries as items and notes, in `timeline_split`, how many entries of `history` are of before
 * (bin/migrate-incident-list.ts moves those). Reading merges the two.
 */
import { TABLE } from './client.js';
import { forEachPage } from './query.js';
import * as keys from './item-keys.js';
import type { TransactItem } from './transact.js';

/** One thing that happened to an incident, in time order: the replay is this list. */
export interface HistoryEntry {
  at: string;
  /** `status`, `note`, `assigned`, `escalated`, `acknowledged`, `linked`, `created`, `resolution`. */
  kind: string;
  by: string;
  detail: Record<string, unknown>;
}

/** The layout of an incident item whose timeline is in items of its own and which the list rows list. */
export const TIMELINE_LAYOUT = 2;

/** What the incident item keeps of its timeline: the status changes. */
export const summaryOf = (entries: readonly HistoryEntry[]): HistoryEntry[] =>
  entries.filter((e) => e.kind === 'status');

/** How many leading entries of a stored incident's `history` are not items of their own. */
export function entriesOnItem(item: Record<string, unknown>): number {
  const history = Array.isArray(item.history) ? item.history.length : 0;
  if (item.layout === TIMELINE_LAYOUT) return 0;
  return typeof item.timeline_split === 'number' ? item.timeline_split : history;
}

export function timelineItem(
  tenantId: string,
  incidentId: string,
  version: number,
  index: number,
  e: HistoryEntry,
): Record<string, unknown> {
  return {
    ...keys.incidentTimeline(tenantId, incidentId, version, index),
    entity: 'INCIDENT_TIMELINE',
    at: e.at,
    kind: e.kind,
    by: e.by,
    detail: e.detail,
  };
}

/** The entries a change at `version` adds, each its own item (a retried change rewrites the same keys). */
export function timelinePuts(
  tenantId: string,
  incidentId: string,
  version: number,
  entries: readonly HistoryEntry[],
): TransactItem[] {
  return entries.map((e, i) => ({
    Put: { TableName: TABLE, Item: timelineItem(tenantId, incidentId, version, i, e) },
  }));
}

const entryOf = ({ at, kind, by, detail }: Record<string, unknown>): HistoryEntry =>
  ({ at, kind, by, detail }) as HistoryEntry;

/**
 * The incident item and its whole timeline in key order: one consistent Query of the partition
 * (`begins_with INCIDENT`: the item, then its entries), paged past 1 MB.
 */
export async function readWithTimeline(
  tenantId: string,
  incidentId: string,
): Promise<{ item: Record<string, unknown> | null; timeline: HistoryEntry[] }> {
  const { PK, SK } = keys.incident(tenantId, incidentId);
  const read: { item?: Record<string, unknown> } = {};
  const entries: HistoryEntry[] = [];
  const query = {
    TableName: TABLE,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': PK, ':sk': SK },
    ConsistentRead: true,
  };
  await forEachPage(query, (page) => {
    for (const i of page.Items ?? []) {
      if (i.SK === SK) read.item = i;
      else if (String(i.SK).startsWith(keys.INCIDENT_TIMELINE_PREFIX)) entries.push(entryOf(i));
    }
  });
  const { item } = read;
  if (!item) return { item: null, timeline: [] };
  const before = Array.isArray(item.history) ? (item.history as HistoryEntry[]).slice(0, entriesOnItem(item)) : [];
  return { item, timeline: [...before, ...entries] };
}
