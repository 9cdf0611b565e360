/** Internet health (docs/connectors.md, "Internet health"): watched prefixes' routing and RPKI state, and routing alerts. */
import { bgpAlertList, bgpAlertsQuery, internetHealthAnswer, internetHealthQuery } from '../schemas/internet-health.js';
import type { RouteDef } from './types.js';

export const internetHealthRoute = {
  id: 'internetHealth.get',
  method: 'GET',
  path: '/api/v1/internet-health',
  handler: 'functions/internet-health/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'BGP and RPKI status of the prefixes and ASNs you watch',
  description:
    "For each `ip` range (CIDR) of your watchlist, with your watchlist's `asn` entries as its expected origins: its RPKI validity (RFC 6811) from each expected origin against your `rpki-vrps` connector's export, the last BGP updates your `ris-live` connectors read of it (RIPE RIS Live), and the possible hijacks and leaks raised in the window; and how fresh those connectors are. Nothing polled yet is empty lists and nulls, not an error.",
  request: { query: internetHealthQuery },
  response: { status: 200, description: 'The routing health of what you watch.', schema: internetHealthAnswer },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const bgpAlertsRoute = {
  id: 'internetHealth.bgpAlerts',
  method: 'GET',
  path: '/api/v1/internet-health/bgp-alerts',
  handler: 'functions/internet-health/bgp-alerts.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Possible BGP hijacks and route leaks of what you watch, newest first',
  description:
    'The routing alerts your `ris-live` connectors raised (each also a `bgp.alert` event), newest first, kept 30 days: `possible_hijack` (a watched prefix or a more-specific originated by an AS not expected, or RPKI invalid) and `possible_leak` (a watched AS that gives no transit seen in the middle of a path). Filters: `kind`, `prefix` (that prefix or inside it), `asn` (origin, watched AS or anywhere in the path), `since`. The filters look at the newest 1,000 alerts since `since` (`truncated` says when there were more).',
  request: { query: bgpAlertsQuery },
  response: { status: 200, description: 'A page of the alerts.', schema: bgpAlertList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const internetHealthRoutes: readonly RouteDef[] = [internetHealthRoute, bgpAlertsRoute];
