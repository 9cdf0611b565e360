/**
 * Polling a connector (docs/connectors.md): reads its source through the outbound guard, keeps the
 * new and changed records (shared/db/feed-records.ts), raises the hazard and advisory alerts, and records the
 * status. Called by the `connector-poll` worker on the connector's schedule and by
 * `POST /api/v1/connectors/{id}/poll`.
 *
 * A poll never throws for the feed's faults: a failed poll is recorded in the status and the
 * next one tries again. It is idempotent: records are stored once, alerts raised once.
 */
import { recordPoll, type ConnectorSettings, type PollStatus, type StoredConnector } from '../../db/connectors.js';
import { storeFeedRecords } from '../../db/feed-records.js';
import type { FeedProblem } from '../../feeds/feed-document.js';
import { getIntegration, type StoredIntegration } from '../../db/integrations.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import { metrics } from '../../metrics.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { outboundPolicy } from '../outbound-policy.js';
import { connectorUrl, disarmConnector } from './connector-settings.js';
import { connectorView, type ConnectorView } from './connector-view.js';
import { connectorSource } from './feed-sources.js';
import { raiseAdvisoryAlerts } from './advisory-alerts.js';
import { hazardAlerts, raiseHazardAlerts } from './hazard-alerts.js';
import { hazardIndexTime, isHazardFeed, type HazardRecords } from './hazard-feeds.js';
import { exportConnectorRecords } from './lake-export.js';
import { FEEDS, pollFeed } from './poll-feed.js';
import { feedsOf } from '../../schemas/feed-catalog.js';
import { isRoutingFeed, type RoutingFeed } from './routing-feeds.js';

/** A poll's outcome, as pollConnector records it. */
export type FeedPollResult =
  | { status: 'failed'; error: string; httpStatus: number | null; bytes: number; latencyMs: number }
  | {
      status: 'ok';
      /** Null when nothing was asked of the source (nothing to watch). */
      httpStatus: number | null;
      bytes: number;
      latencyMs: number;
      read: number;
      kept: { stored: number; updated: number; unchanged: number };
      problems: FeedProblem[];
      /** What the poll wants said beside the problems (a watch too large, nothing to watch). */
      note: string | null;
      alerts: number;
    };

/**
 * How a routing feed's connector is polled (shared/domain/internet-health/poll-routing.ts), given
 * by the caller: internet health builds on connectors, so connectors never import it.
 */
export type RoutingPoll = (
  tenantId: TenantId,
  connectorId: string,
  settings: ConnectorSettings & { feed: RoutingFeed },
  requested: boolean,
  startedAt: string,
) => Promise<FeedPollResult>;

export const CONNECTOR_NOT_FOUND = 'Connector not found';

export interface PollReport {
  outcome: 'ok' | 'failed';
  error: string | null;
  records: PollStatus['last_records'];
  alerts_raised: number;
}

/**
 * Polls one connector: reads its source, keeps the records, raises the alerts, records the
 * status. `requested` is a poll asked for through the API, which runs even if the connector is
 * disabled; a scheduled one finds a disabled or removed connector and does nothing (and removes a
 * schedule whose connector is gone). Null when there was nothing to poll.
 */
export async function pollConnector(
  tenantId: TenantId,
  integrationId: string,
  requested: boolean,
  pollRouting: RoutingPoll,
): Promise<{ report: PollReport; connector: ConnectorView } | null> {
  const found = await getIntegration(tenantId, integrationId);
  const stored: (StoredConnector & Pick<StoredIntegration, 'config_sealed'>) | null =
    found?.kind === 'feed' && found.connector ? { ...found, connector: found.connector } : null;
  if (!stored) {
    if (requested) throw new NotFoundError(CONNECTOR_NOT_FOUND);
    await disarmConnector(integrationId);
    return null;
  }
  if (!stored.enabled && !requested) return null;
  // The URL called, its credentials opened from the sealed config when the item shows them REDACTED.
  const settings = { ...stored.connector, url: await connectorUrl(stored) };
  const startedAt = now();
  let result: FeedPollResult;
  try {
    result = isRoutingFeed(settings.feed)
      ? await pollRouting(tenantId, integrationId, { ...settings, feed: settings.feed }, requested, startedAt)
      : await pollDocument(tenantId, integrationId, settings, requested, startedAt);
  } catch (err) {
    metrics.feedPoll(settings.feed, 'failure', 0);
    throw err;
  }
  metrics.feedPoll(
    settings.feed,
    result.status === 'failed' ? 'failure' : 'success',
    result.status === 'failed' ? 0 : result.read,
  );
  const before = stored.poll_last;
  const empty = { read: 0, stored: 0, updated: 0, unchanged: 0, skipped: 0 };
  let report: PollReport;
  let status: PollStatus;
  if (result.status === 'failed') {
    report = { outcome: 'failed', error: result.error, records: empty, alerts_raised: 0 };
    status = {
      last_run_at: startedAt,
      last_outcome: 'failed',
      last_success_at: before?.last_success_at ?? null,
      last_error: result.error,
      consecutive_failures: (before?.consecutive_failures ?? 0) + 1,
      last_records: before?.last_records ?? empty,
      http_status: result.httpStatus,
      bytes: result.bytes,
      latency_ms: result.latencyMs,
    };
  } else {
    const records = { read: result.read, ...result.kept, skipped: result.problems.length };
    report = { outcome: 'ok', error: null, records, alerts_raised: result.alerts };
    const skipped =
      result.problems.length > 0
        ? `${result.problems.length} entries skipped; the first: ${result.problems[0]!.reason}`
        : null;
    status = {
      last_run_at: startedAt,
      last_outcome: 'ok',
      last_success_at: startedAt,
      last_error: [result.note, skipped].filter((n) => n !== null).join('; ') || null,
      consecutive_failures: 0,
      last_records: records,
      http_status: result.httpStatus,
      bytes: result.bytes,
      latency_ms: result.latencyMs,
    };
  }
  if (!(await recordPoll(tenantId, integrationId, status, report.records.stored, report.alerts_raised))) {
    if (requested) throw new NotFoundError(CONNECTOR_NOT_FOUND);
    return null;
  }
  const after: StoredConnector = {
    ...stored,
    poll_last: status,
    poll_stored: (stored.poll_stored ?? 0) + report.records.stored,
    poll_alerts: (stored.poll_alerts ?? 0) + report.alerts_raised,
  };
  return { report, connector: connectorView(after) };
}

/** The feeds whose records include travel advisories (a tenant's own list may hold only sanctions: then nothing alerts): the catalog's advisory family. */
const ADVISORY_FEEDS: ReadonlySet<string> = new Set(feedsOf('advisory'));

/** A poll of a feed that is a document: its records kept one item each and exported to the tenant's lake, the hazard feeds' and advisories' alerts raised. */
async function pollDocument(
  tenantId: TenantId,
  integrationId: string,
  settings: ConnectorSettings,
  requested: boolean,
  startedAt: string,
): Promise<FeedPollResult> {
  // Asked for through the API, the answer waits: 15 s for the source (API Gateway's 29 s in all).
  const outcome = await pollFeed(settings.feed, outboundPolicy(), settings.url, requested ? 15_000 : 20_000);
  if (outcome.status === 'failed') return outcome;
  const keep = FEEDS[settings.feed].keepSeconds;
  const source = connectorSource(settings);
  const kept = await storeFeedRecords(
    source,
    outcome.records,
    startedAt,
    keep === null ? null : Math.floor(Date.parse(startedAt) / 1000) + keep,
    isHazardFeed(settings.feed) ? hazardIndexTime(settings.feed) : undefined,
  );
  // The tenant's lake gets what this connector read that it had not exported (a failure throws: the next poll exports it).
  await exportConnectorRecords(
    tenantId,
    { id: integrationId, feed: settings.feed, source },
    outcome.records,
    startedAt,
  );
  let alerts = 0;
  const feed = settings.feed;
  if (isHazardFeed(feed)) {
    const found = await hazardAlerts(
      tenantId,
      feed,
      outcome.records as HazardRecords[typeof feed][],
      settings,
      Date.parse(startedAt),
    );
    alerts = await raiseHazardAlerts(tenantId, integrationId, found, Date.parse(startedAt));
  } else if (ADVISORY_FEEDS.has(feed)) {
    alerts = await raiseAdvisoryAlerts(tenantId, integrationId, feed, outcome.records, Date.parse(startedAt));
  }
  return { ...outcome, read: outcome.records.length, kept, note: null, alerts };
}
