/**
 * Parts of multi-part AIS messages that came one event at a time (docs/vessels.md): each is put
 * under its message's group, and the group is read back whole to see whether the message is
 * complete. Kept 10 minutes (TTL); a joined message's parts are deleted at once, so a sequential
 * id used again later starts afresh.
 */
import { BatchWriteCommand, PutCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../client.js';
import { vesselKeys as keys } from './keys.js';
import { queryPage } from '../query.js';
import { backoff } from '../read-batch.js';
import { TABLE_KEYS } from '../table.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export interface StoredFragment {
  part: number;
  sentence: string;
  occurred_at: string;
  event_id: string;
}

const KEEP_SECONDS = 600;

/** Puts a part (the same part again replaces it: a retried batch writes nothing new). */
export async function putFragment(tenantId: TenantId, group: string, fragment: StoredFragment): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.aisFragment(tenantId, group, fragment.part),
        ...fragment,
        [TABLE_KEYS.ttlAttribute]: Math.floor(Date.now() / 1000) + KEEP_SECONDS,
      },
    }),
  );
}

/** The parts of a group kept so far, by part number (one Query: a message has at most 9 parts). */
export async function fragmentsOf(tenantId: TenantId, group: string): Promise<StoredFragment[]> {
  const items = await queryPage(
    { pk: keys.aisFragment(tenantId, group, 0).PK, consistent: true },
    { limit: 9, offset: 0 },
  );
  return items
    .map((i) => ({
      part: Number(i.part),
      sentence: String(i.sentence),
      occurred_at: String(i.occurred_at),
      event_id: String(i.event_id),
    }))
    .sort((a, b) => a.part - b.part);
}

/** Deletes the parts of a joined message. */
export async function deleteFragments(tenantId: TenantId, group: string, parts: readonly number[]): Promise<void> {
  let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] = parts.map((part) => ({
    DeleteRequest: { Key: keys.aisFragment(tenantId, group, part) },
  }));
  for (let attempt = 0; requests.length > 0; attempt++) {
    if (attempt > 0) await backoff(attempt);
    const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: requests } }));
    requests = out.UnprocessedItems?.[TABLE] ?? [];
    if (requests.length > 0 && attempt >= 5) throw new Error(`${requests.length} AIS part(s) could not be deleted`);
  }
}
