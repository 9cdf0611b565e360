/**
 * A connector's schedule came due (EventBridge Scheduler in AWS, a timer under `npm start`; worker
 * `connector-poll`): its input `{tenant_id, integration_id}`, written by the route that made the
 * schedule for the connector's tenant, names the connector polled (poll-connector.ts). An input
 * without them is dropped; a feed's faults are the connector's status, not a failure.
 */
import type { PollRequest } from '../../adapters/connector-schedules.js';
import { log } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import { pollConnector, type RoutingPoll } from './poll-connector.js';

/** `pollRouting` polls a routing feed's connector: internet health builds on connectors, so its caller gives it. */
export async function pollScheduledConnector(
  request: Partial<PollRequest> | null | undefined,
  pollRouting: RoutingPoll,
): Promise<void> {
  if (typeof request?.tenant_id !== 'string' || typeof request.integration_id !== 'string') {
    log.error('a connector poll without its tenant and connector: dropped', { event: request });
    return;
  }
  // The schedule's own input, written by the route that made it for the connector's tenant: the
  // poll runs as that tenant (docs/architecture.md, 27).
  const { tenant_id: tenantId, integration_id: connectorId } = request;
  const polled = await asTenant(tenantId, () => pollConnector(systemTenant(tenantId), connectorId, false, pollRouting));
  if (polled)
    log.info('connector polled', {
      tenant_id: request.tenant_id,
      connector_id: request.integration_id,
      ...polled.report,
    });
}
