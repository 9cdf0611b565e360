/**
 * Advisory alerts (docs/connectors.md, "Geopolitical risk"): an advisory that a tenant's connector
 * reads at level 3 (reconsider travel) or 4 (do not travel) for the country one of its environments
 * is in raises a `hazard.alert` event for that environment (`payload.hazard` `travel_advisory`).
 *
 * Once each: an alert is named by the connector, the country, the level and the environment, and a
 * guard item written with the outbox message that carries the event (shared/db/announce-once.ts)
 * keeps a re-poll, or a reissue of the same advisory at the same level, from raising it again; a
 * level that rises (3 to 4) raises a new one. Every poll checks every advisory it read, so an alert
 * whose write failed is raised by the next poll. The `vessel-announcer` worker stores the event.
 */
import { listEnvironments } from '../../db/environments.js';
import type { AdvisoryLevel, AdvisoryRecord } from '../../feeds/geopolitical-records.js';
import { derivedTimeId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { EventInput } from '../../schemas/events.js';
import { announceHazardOnce } from './hazard-alerts.js';

/** The lowest level that alerts: 3, reconsider (or avoid non-essential) travel. */
export const ADVISORY_ALERT_LEVEL = 3;
/** Environments one poll assesses (the overlay's bound, geopolitical-risk.ts). */
const MAX_ENVIRONMENTS = 500;
/** An advisory stays at its level for months: its guard outlives that, so a reissue does not alert again. */
const GUARD_DAYS = 400;

const LEVEL_WORDS: Record<AdvisoryLevel, string> = {
  1: 'Exercise normal precautions',
  2: 'Exercise increased caution',
  3: 'Reconsider travel',
  4: 'Do not travel',
};

const isAdvisory = (r: { id: string }): r is AdvisoryRecord => 'kind' in r && r.kind === 'advisory';

/**
 * Raises the alerts of a poll's records (any feed's: only advisories at ADVISORY_ALERT_LEVEL or
 * above count) for the tenant's environments in their countries; the number raised now. Calls:
 * none when no advisory is that serious; else 1 Query of the environments and one transaction per
 * environment in such a country (one raised before fails its condition and writes nothing).
 */
export async function raiseAdvisoryAlerts(
  tenantId: TenantId,
  connectorId: string,
  feed: string,
  records: readonly { id: string }[],
  atMs: number,
): Promise<number> {
  const serious = new Map<string, AdvisoryRecord>();
  for (const r of records) if (isAdvisory(r) && r.level >= ADVISORY_ALERT_LEVEL) serious.set(r.country, r);
  if (serious.size === 0) return 0;
  const environments = await listEnvironments(tenantId, {}, { limit: MAX_ENVIRONMENTS, offset: 0 });
  let raised = 0;
  for (const env of environments) {
    const advisory = env.country ? serious.get(env.country) : undefined;
    if (!advisory) continue;
    const key = `${connectorId}#advisory#${advisory.country}#${advisory.level}#${env.environment_id}`;
    const event: EventInput = {
      event_id: derivedTimeId(atMs, `${tenantId}/hazard/${key}`, 0),
      type: 'hazard.alert',
      source: 'api',
      environment_id: env.environment_id,
      // When the poll found it: the advisory's own date may be months old.
      occurred_at: new Date(atMs).toISOString(),
      ...(env.location ? { location: env.location } : {}),
      description: `Travel advisory level ${advisory.level} (${LEVEL_WORDS[advisory.level]}) for ${advisory.country}, where ${env.name} is: ${advisory.title}`,
      payload: {
        hazard: 'travel_advisory',
        feed,
        connector_id: connectorId,
        record_id: advisory.id,
        country: advisory.country,
        advisory_level: advisory.level,
        title: advisory.title,
        summary: advisory.summary,
        updated: advisory.updated,
        source: advisory.source,
        url: advisory.url,
      },
    };
    if (await announceHazardOnce(tenantId, key, GUARD_DAYS, event, atMs)) raised++;
  }
  return raised;
}
