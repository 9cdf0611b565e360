/**
 * Connectors as shown (docs/connectors.md): settings and status, and the sources a tenant reads.
 * Reads only: no parser, no schedule, no outbound call.
 */
import { config } from '../../config.js';
import { listTenantConnectors, type PollStatus, type StoredConnector } from '../../db/connectors.js';
import type { FeedName } from '../../schemas/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { FEED_CATALOG } from './feed-catalog.js';
import { redactUrl } from '../../url-secrets.js';
import { connectorSource } from './feed-sources.js';

/** Whether connectors poll on their own here: always in AWS; under `npm start` only with LOCAL_CONNECTORS=on. */
export const schedulesRun = () => config.stage !== 'local' || config.connectors.localTimers;

export type ConnectorState = 'never_polled' | 'ok' | 'failing' | 'disabled';

export interface ConnectorView {
  connector_id: string;
  tenant_id: string;
  name: string;
  feed: FeedName;
  source_url: string;
  public_source: boolean;
  enabled: boolean;
  interval_minutes: number;
  radius_km: number | null;
  min_magnitude: number | null;
  min_alert_level: 'green' | 'orange' | 'red' | null;
  status: {
    state: ConnectorState;
    scheduled: boolean;
    next_run_at: string | null;
    last_run_at: string | null;
    last_success_at: string | null;
    last_error: string | null;
    consecutive_failures: number;
    last_records: PollStatus['last_records'] | null;
    records_stored: number;
    alerts_raised: number;
  };
  created_at: string;
  updated_at: string;
}

export function connectorView(c: StoredConnector): ConnectorView {
  const last = c.poll_last;
  const scheduled = c.enabled && schedulesRun();
  const from = Date.parse(last?.last_run_at ?? c.updated_at);
  const state: ConnectorState = !c.enabled
    ? 'disabled'
    : !last
      ? 'never_polled'
      : last.last_outcome === 'ok'
        ? 'ok'
        : 'failing';
  return {
    connector_id: c.integration_id,
    tenant_id: c.tenant_id,
    name: c.name,
    feed: c.connector.feed,
    // Kept so since credentials in URLs are sealed; a connector saved before is shown so too.
    source_url: redactUrl(c.connector.url),
    public_source: c.connector.url === FEED_CATALOG[c.connector.feed].defaultUrl,
    enabled: c.enabled,
    interval_minutes: c.connector.interval_minutes,
    radius_km: c.connector.radius_km ?? null,
    min_magnitude: c.connector.min_magnitude ?? null,
    min_alert_level: c.connector.min_alert_level ?? null,
    status: {
      state,
      scheduled,
      next_run_at: scheduled ? new Date(from + c.connector.interval_minutes * 60_000).toISOString() : null,
      last_run_at: last?.last_run_at ?? null,
      last_success_at: last?.last_success_at ?? null,
      last_error: last?.last_error ?? null,
      consecutive_failures: last?.consecutive_failures ?? 0,
      last_records: last?.last_records ?? null,
      records_stored: c.poll_stored ?? 0,
      alerts_raised: c.poll_alerts ?? 0,
    },
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export async function listConnectors(tenantId: TenantId, feed?: FeedName): Promise<ConnectorView[]> {
  return (await listTenantConnectors(tenantId)).filter((c) => !feed || c.connector.feed === feed).map(connectorView);
}

/** The source each of the tenant's connectors of `feed` reads (enabled or not); the public one when it has none. */
export async function sourcesOf(tenantId: TenantId, feed: FeedName): Promise<string[]> {
  return (await sourcesOfFeeds(tenantId, [feed]))[feed];
}

/** `sourcesOf` for several feeds, from one read of the tenant's connectors. */
export async function sourcesOfFeeds<F extends FeedName>(
  tenantId: TenantId,
  feeds: readonly F[],
): Promise<Record<F, string[]>> {
  const connectors = await listTenantConnectors(tenantId);
  const out = {} as Record<F, string[]>;
  for (const feed of feeds) {
    const own = connectors.filter((c) => c.connector.feed === feed);
    out[feed] = own.length === 0 ? [feed] : [...new Set(own.map((c) => connectorSource(c.connector)))];
  }
  return out;
}
