/**
 * The outbox: a feature announces a domain change (`incident.created`, ...) by putting one OUTBOX
 * item in the same transaction as the change. The table's stream hands the new item to the
 * `publish-events` worker, which publishes it to the event bus (docs/events.md). The change and
 * its announcement exist together or not at all, and a crash before publishing loses nothing:
 * the stream delivers the item again.
 *
 *   await transactWrite([putNew(incident), auditPut(...), outboxPut({ tenantId, source:
 *     'gatehouse.incidents', detailType: 'incident.created', detail: publicIncident })]);
 */
import { DETAIL_TYPE, isOutboxSource } from '../vocabulary/bus.js';
import { newTimeId, now } from '../ids.js';
import { correlated } from '../log.js';
import { putNew } from './items.js';
import * as keys from './item-keys.js';
import type { TransactItem } from './transact.js';

/**
 * How long a message stays in the table after it was written. It is published within seconds;
 * keeping it as long as the dead-letter queue keeps a failure (14 days) lets an operator find
 * and publish again what failed.
 */
export const OUTBOX_RETENTION_DAYS = 14;

export interface OutboxMessage {
  tenantId: string;
  /** `gatehouse.<feature>`, e.g. `gatehouse.incidents`; `gatehouse.events` is stored events' own. */
  source: string;
  /** `<resource>.<change>`, e.g. `incident.created`. */
  detailType: string;
  /** The public JSON of what changed; `tenant_id` and `message_id` are added when published. */
  detail: Record<string, unknown>;
}

/** The OUTBOX item of a message; throws on a source or detail-type integrators could not rely on. */
export function outboxItem(
  message: OutboxMessage,
  at: { messageId?: string; createdAt?: string } = {},
): Record<string, unknown> {
  if (!isOutboxSource(message.source)) {
    throw new Error(
      `outbox source ${JSON.stringify(message.source)} must be gatehouse.<feature> (not gatehouse.events)`,
    );
  }
  if (!DETAIL_TYPE.test(message.detailType)) {
    throw new Error(`outbox detail type ${JSON.stringify(message.detailType)} must look like incident.created`);
  }
  if (!message.tenantId) throw new Error('an outbox message needs its tenant');
  const messageId = at.messageId ?? newTimeId();
  const createdAt = at.createdAt ?? now();
  return {
    ...keys.outbox(message.tenantId, messageId),
    entity: 'OUTBOX',
    outbox_id: messageId,
    tenant_id: message.tenantId,
    source: message.source,
    detail_type: message.detailType,
    detail: message.detail,
    created_at: createdAt,
    expires_at: Math.floor(Date.parse(createdAt) / 1000) + OUTBOX_RETENTION_DAYS * 86_400,
    // The request's (or the record's) that made the change: published with it (shared/log.ts).
    ...correlated(),
  };
}

/** The transaction item that writes a message (a new id each call: never overwrites one). */
export function outboxPut(message: OutboxMessage): TransactItem {
  return putNew(outboxItem(message));
}
