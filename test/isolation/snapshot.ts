/**
 * Snapshots of a tenant's items, read straight from the table, to prove an attempt changed nothing.
 *
 * `partitionSnapshot` reads the tenant's two partitions (`T#<id>`: tenant, config, users, keys, ...;
 * `T#<id>#AUDIT`: the audit log) with consistent Queries: cheap enough to run after every write
 * attempt. `prefixSnapshot` scans for every partition starting with `T#<id>`, so partitions that
 * later issues add (`T#<id>#EVENTS`, ...) are covered too; it runs at the start and the end.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { tenantPk } from '../../shared/db/keys.js';
import { forEachPage } from '../../shared/db/query.js';

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

export async function partitionSnapshot(tenantId: string): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  const pks = [tenantPk(tenantId), keys.audit(tenantId, '').PK];
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

  async start(): Promise<void> {
    this.baseline = await partitionSnapshot(this.tenantId);
    this.last = this.baseline;
  }

  /** The changes since the last check, or none. */
  check(): Promise<string[]> {
    const run = this.queue.then(async () => {
      const now = await partitionSnapshot(this.tenantId);
      const changes = diffSnapshots(this.last, now);
      this.last = now;
      return changes;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async unchangedSinceStart(): Promise<string[]> {
    return diffSnapshots(this.baseline, await partitionSnapshot(this.tenantId));
  }
}
