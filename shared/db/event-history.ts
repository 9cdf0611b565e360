/**
 * A tenant's events read page by page over a stretch of time, for one-off jobs (a backfill of an
 * index the stream worker keeps): the events' partition between the UUIDv7 bounds of the time,
 * oldest first, eventually consistent. Reads only: how events are written is shared/db/events.ts.
 */
import { TABLE } from './client.js';
import { eventFromItem, type StoredEvent } from './events.js';
import * as keys from './item-keys.js';
import { forEachPage } from './query.js';
import { timeIdBound } from '../ids.js';
import type { TenantId } from '../vocabulary/tenant.js';

/** Calls `handle` with each page of the tenant's events received since `fromMs`, with their TTL (epoch seconds, 0 when none). */
export async function forEachEventPageSince(
  tenantId: TenantId,
  fromMs: number,
  handle: (events: { event: StoredEvent; expiresAt: number }[]) => Promise<void>,
): Promise<void> {
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': keys.event(tenantId, '').PK,
        ':lo': timeIdBound(fromMs, 'low'),
        // Event ids only: the given-up sequence ranges (`~VOID#`) sort after every one.
        ':hi': 'g',
      },
    },
    (page) =>
      handle(
        (page.Items ?? []).map((item) => ({ event: eventFromItem(item), expiresAt: Number(item.expires_at) || 0 })),
      ),
  );
}
