/**
 * Analytics counters in the single table (docs/data-model.md, 44): every DynamoDB call of the
 * analytics, reads and the exactly-once writes of the counting worker.
 *
 * Exactly once: each thing counted (an event, an incident's change) is a guarded write, its
 * marker (a put whose condition fails when the thing was counted already), written in one
 * transaction with the ADDs it makes to counters. Writes are grouped into transactions of at most
 * 100 items, the ADDs of a group merged per counter item; when a transaction is cancelled because
 * some markers' conditions failed (a retried stream batch), those writes are dropped and the rest
 * tried again, so nothing is counted twice and nothing is lost.
 */
import { TABLE } from './client.js';
import * as keys from './item-keys.js';
import { readItems, type ItemKey } from './read-batch.js';
import { ConditionFailed, MAX_TRANSACTION_ITEMS, transactWrite, type TransactItem } from './transact.js';
import { forEachPage } from './query.js';
import type { TenantId } from '../vocabulary/tenant.js';

export { MAX_TRANSACTION_ITEMS };
/**
 * Most attributes one counter update ADDs: an update expression is at most 4 KB, and
 * `#a123 :a123, ` is 13 characters.
 */
export const MAX_ATTRIBUTES_PER_UPDATE = 250;
/** Event markers outlive the stream's 24 hours (and a retried or redriven batch) by a day. */
export const EVENT_MARKER_SECONDS = 2 * 86_400;

/** Numbers to ADD to one counter item (absent attributes start at 0), and values to SET. */
export interface CounterAdd {
  key: ItemKey;
  add: Readonly<Record<string, number>>;
  set: Readonly<Record<string, unknown>>;
  /** Values to SET only where the item has none yet (the first writer's stays). */
  initial?: Readonly<Record<string, unknown>>;
}

/** A thing to count: its marker (a write with a condition) and what it adds. */
export interface GuardedWrite {
  /** The caller's id for it (a stream record's sequence number). */
  id: string;
  guard: TransactItem;
  counters: readonly CounterAdd[];
}

export interface ApplyOutcome {
  /** Written now. */
  applied: string[];
  /** Not written: the marker's condition failed (counted already, or the marker moved meanwhile). */
  refused: string[];
  /** Not written: the transaction failed for another reason (throttling, an outage). */
  failed: { id: string; error: unknown }[];
}

const keyId = (key: ItemKey) => `${key.PK}\u0000${key.SK}`;

/** Greedy groups that fit one transaction each: markers plus distinct counter items, attributes capped. */
function groupsOf(writes: readonly GuardedWrite[]): GuardedWrite[][] {
  const groups: GuardedWrite[][] = [];
  let group: GuardedWrite[] = [];
  let attributes = new Map<string, Set<string>>();
  const fits = (w: GuardedWrite) => {
    let items = group.length + attributes.size + 1;
    for (const c of w.counters) {
      const names = attributes.get(keyId(c.key));
      if (!names) items++;
      const added = Object.keys(c.add).filter((n) => !names?.has(n)).length;
      if ((names?.size ?? 0) + added > MAX_ATTRIBUTES_PER_UPDATE) return false;
    }
    return items <= MAX_TRANSACTION_ITEMS;
  };
  for (const w of writes) {
    if (group.length > 0 && !fits(w)) {
      groups.push(group);
      group = [];
      attributes = new Map();
    }
    group.push(w);
    for (const c of w.counters) {
      const names = attributes.get(keyId(c.key)) ?? new Set<string>();
      for (const n of Object.keys(c.add)) names.add(n);
      attributes.set(keyId(c.key), names);
    }
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The group's counter ADDs merged per item, as updates. */
function counterUpdates(group: readonly GuardedWrite[]): TransactItem[] {
  const merged = new Map<
    string,
    { key: ItemKey; add: Record<string, number>; set: Record<string, unknown>; initial: Record<string, unknown> }
  >();
  for (const w of group) {
    for (const c of w.counters) {
      const m = merged.get(keyId(c.key)) ?? { key: c.key, add: {}, set: {}, initial: {} };
      for (const [name, n] of Object.entries(c.add)) m.add[name] = (m.add[name] ?? 0) + n;
      Object.assign(m.set, c.set);
      // The group's first writer's initial values stand, as the item's first writer's do.
      for (const [name, v] of Object.entries(c.initial ?? {})) if (!(name in m.initial)) m.initial[name] = v;
      merged.set(keyId(c.key), m);
    }
  }
  return [...merged.values()].map(({ key, add, set, initial }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const adds = Object.entries(add)
      .filter(([, n]) => n !== 0)
      .map(([name, n], i) => {
        names[`#a${i}`] = name;
        values[`:a${i}`] = n;
        return `#a${i} :a${i}`;
      });
    const sets = Object.entries(set).map(([name, v], i) => {
      names[`#s${i}`] = name;
      values[`:s${i}`] = v;
      return `#s${i} = :s${i}`;
    });
    Object.entries(initial).forEach(([name, v], i) => {
      names[`#i${i}`] = name;
      values[`:i${i}`] = v;
      sets.push(`#i${i} = if_not_exists(#i${i}, :i${i})`);
    });
    const expression = [
      adds.length > 0 ? `ADD ${adds.join(', ')}` : '',
      sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      Update: {
        TableName: TABLE,
        Key: key,
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  });
}

/**
 * Writes each guarded write at most once: in transactions of at most 100 items; a transaction
 * cancelled for failed markers is tried again without their writes (DynamoDB names every item
 * whose condition failed). Groups run one after the other, in order.
 */
export async function applyGuarded(writes: readonly GuardedWrite[]): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { applied: [], refused: [], failed: [] };
  for (const group of groupsOf(writes)) {
    let pending = group;
    while (pending.length > 0) {
      try {
        await transactWrite([...pending.map((w) => w.guard), ...counterUpdates(pending)]);
        outcome.applied.push(...pending.map((w) => w.id));
        break;
      } catch (error) {
        const refused = error instanceof ConditionFailed ? new Set(error.indexes) : new Set<number>();
        // Only markers have conditions; anything else failing is not a refusal.
        if (refused.size === 0 || [...refused].some((i) => i >= pending.length)) {
          outcome.failed.push(...pending.map((w) => ({ id: w.id, error })));
          break;
        }
        outcome.refused.push(...pending.filter((_, i) => refused.has(i)).map((w) => w.id));
        pending = pending.filter((_, i) => !refused.has(i));
      }
    }
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Events

export const eventCounterAdd = (
  tenantId: string,
  scope: string,
  day: string,
  add: Record<string, number>,
): CounterAdd => ({
  key: keys.eventCounter(tenantId, scope, day),
  add,
  set: { entity: 'EVENT_COUNTS' },
});

/** The marker of an event (or of the `part`th share of its counters): put once, gone with TTL. */
export function eventMarker(tenantId: string, eventId: string, part: number, nowMs: number): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.eventCounted(tenantId, eventId, part),
        entity: 'EVENT_COUNTED',
        expires_at: Math.floor(nowMs / 1000) + EVENT_MARKER_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Incidents

export const incidentCounterAdd = (tenantId: string, hour: string, add: Record<string, number>): CounterAdd => ({
  key: keys.incidentCounter(tenantId, hour),
  add,
  set: { entity: 'INCIDENT_COUNTS' },
});

/** What the counters hold of an incident: its contribution as of `version`. */
export interface AppliedIncident<C> {
  version: number;
  contribution: C;
}

export interface IncidentRef {
  tenantId: string;
  incidentId: string;
}

/** One key per incident, for maps of them. */
export const incidentRefId = (r: IncidentRef) => `${r.tenantId}\u0000${r.incidentId}`;

/** The applied contributions of these incidents (consistent reads, 100 a round trip); absent when none. */
export async function readAppliedIncidents<C>(refs: readonly IncidentRef[]): Promise<Map<string, AppliedIncident<C>>> {
  const read = await readItems(refs.map((r) => keys.incidentCounted(r.tenantId, r.incidentId)));
  const out = new Map<string, AppliedIncident<C>>();
  for (const r of refs) {
    const item = read.get(keys.incidentCounted(r.tenantId, r.incidentId));
    if (item) out.set(incidentRefId(r), { version: Number(item.version), contribution: item.contribution as C });
  }
  return out;
}

/**
 * Records `contribution` as applied at `version`, if the marker is still what was read (`read`:
 * its version then, null when there was none): a concurrent or earlier application fails it.
 */
export function appliedIncidentPut<C>(
  ref: IncidentRef,
  version: number,
  contribution: C,
  read: number | null,
): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.incidentCounted(ref.tenantId, ref.incidentId),
        entity: 'INCIDENT_COUNTED',
        incident_id: ref.incidentId,
        version,
        contribution,
      },
      ...(read === null
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : {
            ConditionExpression: '#v = :read',
            ExpressionAttributeNames: { '#v': 'version' },
            ExpressionAttributeValues: { ':read': read },
          }),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reads

/** A counter item: the day or hour its sort key ends with, and its numeric attributes. */
export interface StoredCounter {
  period: string;
  counts: Record<string, number>;
}

/** The items of one partition with sort keys `prefix + from` .. `prefix + to`, both included, eventually consistent. */
async function countersBetween(pk: string, prefix: string, from: string, to: string): Promise<StoredCounter[]> {
  const out: StoredCounter[] = [];
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': pk, ':lo': `${prefix}${from}`, ':hi': `${prefix}${to}` },
    },
    (page) => {
      for (const item of page.Items ?? []) {
        const counts: Record<string, number> = {};
        for (const [name, value] of Object.entries(item)) if (typeof value === 'number') counts[name] = value;
        out.push({ period: String(item.SK).slice(prefix.length), counts });
      }
    },
  );
  return out;
}

/** The event counter items of a scope, one a day from `fromDay` to `toDay` (`YYYY-MM-DD`): at most one Query page per ~1 MB. */
export function eventCounters(
  tenantId: TenantId,
  scope: string,
  fromDay: string,
  toDay: string,
): Promise<StoredCounter[]> {
  const { PK, SK } = keys.eventCounter(tenantId, scope, '');
  return countersBetween(PK, SK, fromDay, toDay);
}

/** The incident counter items, one per hour with incidents, from `fromHour` to `toHour` (`YYYY-MM-DDTHH`). */
export function incidentCounters(tenantId: TenantId, fromHour: string, toHour: string): Promise<StoredCounter[]> {
  const { PK, SK } = keys.incidentCounter(tenantId, '');
  return countersBetween(PK, SK, fromHour, toHour);
}
