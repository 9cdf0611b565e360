/**
 * Routing alerts raised as events (docs/connectors.md, "Internet health"): each hijack or leak
 * alert of shared/feeds/bgp-alerts.ts becomes a `bgp.alert` event, once per tenant and alert (an
 * alert's id is its kind and the update's id, the same on every re-read of the stream), through
 * the once-only outbox path hazard alerts use (shared/db/announce-once.ts). The guard item keeps
 * the alert, so `GET /api/v1/internet-health/bgp-alerts` lists them with one Query.
 */
import { announceOnce } from '../../db/announce-once.js';
import { routingAlertSk, routingAlertsPk } from '../../db/internet-health.js';
import type { RoutingAlert } from '../../feeds/bgp-alerts.js';
import { derivedTimeId } from '../../ids.js';
import { BGP_ALERT_FOUND, CONNECTORS_SOURCE } from '../../vocabulary/bus.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { EventInput } from '../events/index.js';

/** How long an alert is kept (and listed), and not raised again. */
export const ROUTING_ALERT_DAYS = 30;

/** The event that announces an alert; `atMs` (the poll that raised it) is the time its id carries. */
export function routingAlertEvent(
  tenantId: TenantId,
  connectorId: string,
  alert: RoutingAlert,
  atMs: number,
): EventInput {
  return {
    event_id: derivedTimeId(atMs, `${tenantId}/bgp/${alert.id}`, 0),
    type: 'bgp.alert',
    source: 'api',
    occurred_at: alert.time,
    description: `${alert.kind === 'possible_hijack' ? 'Possible hijack' : 'Possible leak'}: ${alert.reason}`,
    payload: { feed: 'ris-live', connector_id: connectorId, ...alert },
  };
}

/** Raises each alert unless it was raised before; the number raised now. */
export async function raiseRoutingAlerts(
  tenantId: TenantId,
  connectorId: string,
  alerts: readonly RoutingAlert[],
  atMs: number,
): Promise<number> {
  let raised = 0;
  for (const alert of alerts) {
    const event = routingAlertEvent(tenantId, connectorId, alert, atMs);
    const guard = {
      PK: routingAlertsPk(tenantId),
      SK: routingAlertSk(alert.time, alert.id),
      entity: 'BGP_ALERT',
      guardDays: ROUTING_ALERT_DAYS,
      attributes: { alert, connector_id: connectorId },
    };
    if (await announceOnce(tenantId, guard, { source: CONNECTORS_SOURCE, detailType: BGP_ALERT_FOUND }, event, atMs))
      raised++;
  }
  return raised;
}
