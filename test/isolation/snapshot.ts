/**
 * Snapshots of a tenant's items, read straight from the table, to prove an attempt changed nothing.
 *
 * `partitionSnapshot` reads the tenant's two partitions (`T#<id>`: tenant, config, users, keys, ...;
 * `T#<id>#AUDIT`: the audit log) with consistent Queries. `prefixSnapshot` scans for every
 * partition starting with `T#<id>`, so partitions that later issues add (`T#<id>#EVENTS`, ...) are
 * covered too; it runs at the start and the end.
 *
 * After each write attempt the guard first asks the proxy in front of DynamoDB Local (the item-size
 * check's, shared/local/dynamodb-meter.ts) for the number of the last write that named one of the
 * two partitions: the same number as at its last look means no write reached them, and nothing
 * is read. Any other answer, or no proxy to ask, reads both partitions back as before. The proxy
 * numbers a write before its answer leaves, so a write an attempt made is counted by the time the
 * attempt has its answer. At the start and end of each batch the guard reads them back whatever
 * the proxy says (`check({ full: true })`), which also covers a write that did not pass the proxy.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config.js';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { tenantPk } from '../../shared/db/keys.js';
import { forEachPage } from '../../shared/db/query.js';
import { WRITES_PATH } from '../../shared/local/dynamodb-meter.js';

/** `PK|SK` -> the item as canonical JSON. */
export type Snapshot = Map<string, string>;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Set) return [...value].map(canonical).sort();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Attributes left out of the comparison. Empty, and it should stay so: only pure bookkeeping of
 * use (say a key's `last_used_at`, should one be added) may go here, never data a caller can set.
 */
export const VOLATILE_ATTRIBUTES: ReadonlySet<string> = new Set<string>();

function add(snapshot: Snapshot, items: Record<string, unknown>[] | undefined) {
  for (const item of items ?? []) {
    const kept = Object.fromEntries(Object.entries(item).filter(([k]) => !VOLATILE_ATTRIBUTES.has(k)));
    snapshot.set(`${String(item.PK)}|${String(item.SK)}`, JSON.stringify(canonical(kept)));
  }
}

/** The two partitions a guard watches. */
const watchedPartitions = (tenantId: string) => [tenantPk(tenantId), keys.audit(tenantId, '').PK];

/**
 * The number of the last write that named one of `partitions`, from the proxy in front of
 * DynamoDB Local; undefined when there is none to ask (GATEHOUSE_ITEM_SIZE_CHECK=off).
 */
export async function lastWriteTo(partitions: readonly string[]): Promise<number | undefined> {
  const endpoint = config.endpoints.dynamodb;
  if (!endpoint) return undefined;
  const query = new URLSearchParams(partitions.map((pk): [string, string] => ['pk', pk]));
  const res = await fetch(`${endpoint}${WRITES_PATH}?${query.toString()}`).catch(() => undefined);
  if (!res?.ok || !res.headers.get('content-type')?.startsWith('application/json')) {
    await res?.body?.cancel();
    return undefined;
  }
  const body = (await res.json()) as { last?: unknown };
  return typeof body.last === 'number' ? body.last : undefined;
}

export async function partitionSnapshot(tenantId: string): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  const pks = watchedPartitions(tenantId);
  await Promise.all(
    pks.map((pk) =>
      forEachPage(
        {
          TableName: TABLE,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        },
        (page) => add(snapshot, page.Items),
      ),
    ),
  );
  return snapshot;
}

/** Parallel scan segments of a snapshot. */
const SCAN_SEGMENTS = 4;

export async function prefixSnapshot(tenantId: string): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  // The whole table is read (a tenant's partitions have no common key to query): in segments at
  // once, since other tests of the run may have filled it with tens of thousands of items.
  await Promise.all(
    Array.from({ length: SCAN_SEGMENTS }, async (_, segment) => {
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await db.send(
          new ScanCommand({
            TableName: TABLE,
            FilterExpression: 'begins_with(PK, :prefix)',
            ExpressionAttributeValues: { ':prefix': tenantPk(tenantId) },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
            Segment: segment,
            TotalSegments: SCAN_SEGMENTS,
          }),
        );
        add(snapshot, out.Items);
        startKey = out.LastEvaluatedKey;
      } while (startKey);
    }),
  );
  return snapshot;
}

/** What differs, one line per item: `added`, `removed` or `changed` with both versions. */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [key, item] of after) {
    const old = before.get(key);
    if (old === undefined) out.push(`added ${key}: ${item}`);
    else if (old !== item) out.push(`changed ${key}: ${old} -> ${item}`);
  }
  for (const key of before.keys()) if (!after.has(key)) out.push(`removed ${key}`);
  return out;
}

/**
 * Watches a tenant that no attempt may change. Every check compares with the last state seen, so
 * a change is reported once, by the first check after it; `unchangedSinceStart` compares with the
 * state at the start.
 */
export class TenantGuard {
  private baseline: Snapshot = new Map();
  private last: Snapshot = new Map();
  /** Checks run one at a time, so a change is reported by exactly one of them. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly label: string,
    readonly tenantId: string,
  ) {}

  /** The proxy's number of the last write to the partitions when they were last read (undefined: no proxy). */
  private lastWrite: number | undefined;
  /** Checks that read nothing, the proxy having seen no write since the last read (for the suite's report). */
  quickChecks = 0;
  /** Checks that read both partitions back. */
  fullReads = 0;

  async start(): Promise<void> {
    this.lastWrite = await lastWriteTo(watchedPartitions(this.tenantId));
    this.baseline = await partitionSnapshot(this.tenantId);
    this.last = this.baseline;
  }

  /**
   * The changes since the last check, or none. Without `full`, nothing is read when the proxy saw
   * no write to the partitions since they were last read.
   */
  check(options: { full?: boolean } = {}): Promise<string[]> {
    const run = this.queue.then(async () => {
      // Asked before the partitions are read: a write between the two is read now and counted next time.
      const lastWrite = await lastWriteTo(watchedPartitions(this.tenantId));
      if (!options.full && lastWrite !== undefined && lastWrite === this.lastWrite) {
        this.quickChecks += 1;
        return [];
      }
      const now = await partitionSnapshot(this.tenantId);
      this.fullReads += 1;
      const changes = diffSnapshots(this.last, now);
      this.last = now;
      this.lastWrite = lastWrite;
      return changes;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async unchangedSinceStart(): Promise<string[]> {
    return diffSnapshots(this.baseline, await partitionSnapshot(this.tenantId));
  }
}
