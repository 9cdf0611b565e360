/**
 * Worker `connector-poll` (shared/workers.ts): invoked by a connector's schedule (EventBridge
 * Scheduler in AWS, a timer under `npm start`) with `{tenant_id, integration_id}`, polls that
 * connector (shared/domain/connectors/connectors.ts). A feed's faults are the connector's status,
 * not a failure; anything else throws, and the invocation goes to the dead letters.
 */
import { pollConnector } from '../../shared/domain/connectors/poll-connector.js';
import { pollRouting } from '../../shared/domain/internet-health/poll-routing.js';
import type { PollRequest } from '../../shared/adapters/connector-schedules.js';
import { log } from '../../shared/log.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat('connector-poll', async (event: PollRequest): Promise<void> => {
  if (typeof event?.tenant_id !== 'string' || typeof event.integration_id !== 'string') {
    log.error('a connector poll without its tenant and connector: dropped', { event });
    return;
  }
  // The schedule's own input, written by the route that made it for the connector's tenant.
  const polled = await pollConnector(systemTenant(event.tenant_id), event.integration_id, false, pollRouting);
  if (polled) log.info('connector polled', { tenant_id: event.tenant_id, connector_id: event.integration_id, ...polled.report });
});
