/**
 * One message of the `vessel-episodes` queue (worker `vessel-announcer`), fed by a rule on the bus
 * with the vessel tracker's `vessel.episode_found`, the watchlist's `watchlist.alert_found` and the
 * connectors' `hazard.alert_found` and `bgp.alert_found` messages: the event it carries is
 * ingested (announce.ts). A message that is not JSON, or carries no tenant or event, is dropped
 * (no retry makes it one); a failed ingest throws, and the message is tried again.
 */
import { log } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import type { EventInput } from '../../schemas/events.js';
import { queuedBusMessage } from '../webhooks/index.js';
import { announceEvent } from './announce.js';

export async function announceMessage(body: string, messageId: string): Promise<void> {
  const message = queuedBusMessage(body, messageId, 'announcement');
  const announced = message?.detail.event as EventInput | undefined;
  if (!message || !announced || typeof announced !== 'object') {
    if (message) log.warn('an announcement message without an event: dropped', { sqs_message_id: messageId });
    return;
  }
  // The message's own tenant: the tracker's, written with the episode; as that tenant
  // (docs/architecture.md, 27).
  await asTenant(message.tenantId, () => announceEvent(systemTenant(message.tenantId), announced));
}
