/**
 * Connectors (docs/connectors.md): integrations of kind `feed`, in the tenant's partition like any
 * integration (`T#tid`, `INTEGRATION#<v7>`), with two things more on the item:
 *
 * - `connector`: what it polls (feed, source URL, minutes between polls, its alert settings), in
 *   the clear, but for the credentials of its URL: those are `REDACTED` (shared/url-secrets.ts),
 *   and the poller opens the sealed config for the URL it calls only when the URL has one;
 *   `source` names where its records are kept (shared/domain/connectors/feed-sources.ts, from the
 *   URL called), so a read of a tenant's sources opens nothing;
 * - `poll_last`, `poll_stored`, `poll_alerts`: the status of its last poll and its totals, written
 *   by the poller alone (one UpdateItem, no version bump: a settings change and a poll never
 *   conflict).
 *
 * And a sparse GSI1 entry (`CONNECTORS`, `<tenant>#<id>`: docs/data-model.md, pattern 51a), the
 * directory of every tenant's connectors, read only by the local runtime to arm its timers again
 * when it starts (in AWS each connector's EventBridge Scheduler schedule outlives the process).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FeedName } from '../schemas/integrations.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { CONNECTOR_DIRECTORY_PK, tenantPk } from './keys.js';
import { queryPage } from './query.js';

export interface ConnectorSettings {
  feed: FeedName;
  /** The source polled: the feed's public URL unless the connector names another; its credentials `REDACTED`. */
  url: string;
  /**
   * Where its records are kept (`feedSource` of the URL called, credentials and all); absent on
   * connectors saved before it was kept, whose `url` is the URL called.
   */
  source?: string;
  interval_minutes: number;
  /** Hazard feeds: the distance (km) that raises an alert (GDACS without one: by event type). */
  radius_km?: number;
  /** Earthquakes: the least magnitude that alerts. */
  min_magnitude?: number;
  /** GDACS: the least alert level that alerts. */
  min_alert_level?: 'green' | 'orange' | 'red';
  /** RIS Live: seconds a poll reads the stream, and whether the watched ASNs give transit (docs/connectors.md). */
  stream_seconds?: number;
  provides_transit?: boolean;
}

/** The last poll, as the connector's status shows it. */
export interface PollStatus {
  last_run_at: string;
  /** `ok` or `failed`. */
  last_outcome: 'ok' | 'failed';
  last_success_at: string | null;
  last_error: string | null;
  /** Failed polls since the last success. */
  consecutive_failures: number;
  /** What the last successful poll did with the records it read. */
  last_records: { read: number; stored: number; updated: number; unchanged: number; skipped: number };
  http_status: number | null;
  bytes: number;
  latency_ms: number;
}

/** The attributes a `feed` integration's item carries besides an integration's. */
export function connectorAttributes(
  tenantId: TenantId,
  integrationId: string,
  settings: ConnectorSettings,
): Record<string, unknown> {
  return { connector: settings, GSI1PK: CONNECTOR_DIRECTORY_PK, GSI1SK: `${tenantId}#${integrationId}` };
}

export interface StoredConnector {
  integration_id: string;
  tenant_id: TenantId;
  name: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  connector: ConnectorSettings;
  /** The last poll; absent before the first. */
  poll_last?: PollStatus;
  /** Records stored new, and alerts raised, over the connector's life. */
  poll_stored?: number;
  poll_alerts?: number;
}

/** The tenant's connectors, oldest first (one Query of its integrations: at most 50). */
export async function listTenantConnectors(tenantId: TenantId): Promise<StoredConnector[]> {
  const items = await queryPage(
    { pk: tenantPk(tenantId), skPrefix: 'INTEGRATION#', ascending: true, filter: { kind: 'feed' } },
    { limit: 1000, offset: 0 },
  );
  return items as unknown as StoredConnector[];
}

/** Every tenant's connectors, by tenant (the local runtime's timers). */
export async function listAllConnectors(): Promise<StoredConnector[]> {
  const items = await queryPage(
    { index: 'GSI1', pk: CONNECTOR_DIRECTORY_PK, ascending: true },
    { limit: 100_000, offset: 0 },
  );
  return items as unknown as StoredConnector[];
}

/**
 * Keeps a poll's status on the connector, and adds its stored records and alerts to the totals;
 * false when the connector is gone (deleted while it polled).
 */
export async function recordPoll(
  tenantId: TenantId,
  integrationId: string,
  status: PollStatus,
  stored: number,
  alerts: number,
): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.integration(tenantId, integrationId),
        UpdateExpression: 'SET poll_last = :status ADD poll_stored :stored, poll_alerts :alerts',
        ConditionExpression: 'attribute_exists(PK) AND kind = :feed',
        ExpressionAttributeValues: { ':stored': stored, ':alerts': alerts, ':status': status, ':feed': 'feed' },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}
