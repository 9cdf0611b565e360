/**
 * Active threats: what the tenant's threat definitions match now. A threat is one definition
 * matching in one zone (or outside zones): how many events matched, first and last seen, the
 * incidents those events opened. The event counters' consumer keeps them from the events'
 * `matched_signatures` (see `threatGains`); operators list them and dismiss them. A dismissed
 * threat that matches again is active again.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  dismissThreatItem,
  getThreat,
  linkThreatIncident,
  listThreats,
  threatIdOf,
  widenThreatTimes,
  type Threat,
  type ThreatFilter,
  type ThreatGain,
} from '../../db/threats.js';
import type { PageRequest } from '../../db/query.js';
import { readItems, type ItemKey, type Prefetched } from '../../db/read-batch.js';
import { listSiteEntitiesOfEnvironment, SITE_KINDS, siteEntityFrom, siteEntityKey } from '../../db/site-entities.js';
import { getEnvironment } from '../../db/environments.js';
import { allLibraries, libraryKey } from '../../db/threat-libraries.js';
import { THREAT_LIBRARY_NOT_FOUND } from '../../vocabulary/threat-libraries.js';
import { ENVIRONMENT_NOT_FOUND, ZONE_NOT_FOUND } from '../sites/index.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import { THREAT_FILTER_READ, THREAT_NOT_FOUND } from '../../vocabulary/threats.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import type { SignatureMatch } from '../threat-libraries/index.js';

export type { Threat } from '../../db/threats.js';

/** What an event carries that threats are kept from. */
export interface MatchedEvent {
  tenant_id: TenantId;
  event_id: string;
  occurred_at: string;
  matched_signatures: readonly SignatureMatch[];
  incident_id: string | null;
}

/** The times `events` span in each threat they matched (their counts are kept by `threatCounterAdd`). */
export function threatGains(events: readonly MatchedEvent[]): ThreatGain[] {
  const gains = new Map<string, ThreatGain>();
  for (const event of events) {
    for (const match of event.matched_signatures) {
      const threatId = threatIdOf(event.tenant_id, match);
      const key = `${event.tenant_id}/${threatId}`;
      const gain = gains.get(key);
      if (!gain) {
        gains.set(key, {
          tenantId: event.tenant_id,
          threatId,
          firstSeen: event.occurred_at,
          lastSeen: event.occurred_at,
        });
        continue;
      }
      if (event.occurred_at < gain.firstSeen) gain.firstSeen = event.occurred_at;
      if (event.occurred_at > gain.lastSeen) gain.lastSeen = event.occurred_at;
    }
  }
  return [...gains.values()];
}

/** The threats an event belongs to, by id. */
export const threatIdsOf = (event: MatchedEvent): string[] => [
  ...new Set(event.matched_signatures.map((m) => threatIdOf(event.tenant_id, m))),
];

/**
 * What the counting worker does for events once they are counted (exactly once, with
 * `threatCounterAdd` in their markers' transaction): widens each threat's first and last seen to cover all of
 * `events` (counted now or before: a retried batch must still finish this), and adds the
 * incidents the events name. Both are idempotent.
 */
export async function settleThreats(events: readonly MatchedEvent[]): Promise<void> {
  const matched = events.filter((e) => e.matched_signatures.length > 0);
  for (const gain of threatGains(matched)) await widenThreatTimes(gain);
  for (const event of matched) {
    if (!event.incident_id) continue;
    for (const threatId of threatIdsOf(event)) await linkThreatIncident(event.tenant_id, threatId, event.incident_id);
  }
}

/** How far back "active" looks by default: threats seen in the last 24 hours. */
export const DEFAULT_ACTIVE_HOURS = 24;

export interface ThreatQuery extends Omit<ThreatFilter, 'since' | 'status'> {
  /** `active` unless given; `all` for both. */
  status?: ThreatFilter['status'] | 'all';
  /** Seen within this many hours (default 24). */
  within_hours?: number;
  /** Threats whose definition matches events of this type (the spec's "by type"). */
  event_type?: string;
  /** Threats in the zones of this environment (the spec's "by location", a site at a time). */
  environment_id?: string;
}

/** The zone and library a listing names, to be read with the caller in one BatchGetItem. */
export function threatListLookups(tenantId: TenantId, query: { zone_id?: unknown; library_id?: unknown }): ItemKey[] {
  return [
    ...(typeof query.zone_id === 'string' ? [siteEntityKey(SITE_KINDS.zone, tenantId, query.zone_id)] : []),
    ...(typeof query.library_id === 'string' ? [libraryKey(tenantId, query.library_id)] : []),
  ];
}

/**
 * The tenant's threats seen within the window, most recently seen first. A zone or library named
 * that is not the tenant's is 404 (another tenant's exactly as an unknown one).
 */
export async function listActiveThreats(
  tenantId: TenantId,
  query: ThreatQuery,
  page: PageRequest,
  read: Prefetched,
  nowMs = Date.now(),
): Promise<Threat[]> {
  await readItems(threatListLookups(tenantId, query), read);
  if (query.zone_id !== undefined && !siteEntityFrom(read, SITE_KINDS.zone, tenantId, query.zone_id))
    throw new NotFoundError(ZONE_NOT_FOUND);
  if (query.library_id !== undefined && !read.get(libraryKey(tenantId, query.library_id)))
    throw new NotFoundError(THREAT_LIBRARY_NOT_FOUND);
  const since = new Date(nowMs - (query.within_hours ?? DEFAULT_ACTIVE_HOURS) * 3600_000).toISOString();
  const { within_hours: _w, event_type: eventType, environment_id: environmentId, status = 'active', ...rest } = query;
  const filter = { ...rest, status: status === 'all' ? undefined : status };
  if (eventType === undefined && environmentId === undefined) return listThreats(tenantId, { ...filter, since }, page);
  // Neither is an attribute of a threat: the window's threats are read and kept by their
  // definition's event types and their zone's environment.
  const [definitions, zones] = await Promise.all([
    eventType === undefined ? undefined : definitionsMatching(tenantId, eventType),
    environmentId === undefined ? undefined : zonesOfEnvironment(tenantId, environmentId),
  ]);
  const threats = await listThreats(tenantId, { ...filter, since }, { limit: THREAT_FILTER_READ, offset: 0 });
  return threats
    .filter((t) => !definitions || definitions.has(`${t.library_id}/${t.definition_id}`))
    .filter((t) => !zones || (t.zone_id !== null && zones.has(t.zone_id)))
    .slice(page.offset, page.offset + page.limit);
}

/** The tenant's definitions (library/definition) whose match names `eventType`, active or not. */
async function definitionsMatching(tenantId: TenantId, eventType: string): Promise<Set<string>> {
  const libraries = await allLibraries(tenantId);
  return new Set(
    libraries.flatMap((l) =>
      l.definitions
        .filter((d) => d.match.event_types.includes(eventType as (typeof d.match.event_types)[number]))
        .map((d) => `${l.library_id}/${d.definition_id}`),
    ),
  );
}

/** The ids of an environment's zones; 404 when it is not the tenant's. */
async function zonesOfEnvironment(tenantId: TenantId, environmentId: string): Promise<Set<string>> {
  const [environment, zones] = await Promise.all([
    getEnvironment(tenantId, environmentId),
    listSiteEntitiesOfEnvironment<{ zone_id: string }>(SITE_KINDS.zone, tenantId, environmentId, {
      limit: THREAT_FILTER_READ,
      offset: 0,
    }),
  ]);
  if (!environment) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  return new Set(zones.map((z) => z.zone_id));
}

export async function findThreat(tenantId: TenantId, threatId: string): Promise<Threat> {
  const threat = await getThreat(tenantId, threatId);
  if (!threat) throw new NotFoundError(THREAT_NOT_FOUND);
  return threat;
}

/** Dismisses a threat (it stays dismissed until it matches again), audited with the reason. */
export async function dismissThreat(
  actor: Actor,
  tenantId: TenantId,
  threatId: string,
  reason: string | null,
): Promise<Threat> {
  const threat = await findThreat(tenantId, threatId);
  const at = now();
  const by = actor.principal?.userId ?? actor.principal?.apiKeyId ?? null;
  const audit = auditEntry(actor, {
    tenantId,
    action: 'threat.dismissed',
    resourceType: 'threat',
    resourceId: threatId,
    changes: { status: { from: threat.status, to: 'dismissed' }, ...(reason ? { reason } : {}) },
  });
  try {
    await transactWrite([dismissThreatItem(tenantId, threatId, by, reason, at), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) throw new NotFoundError(THREAT_NOT_FOUND);
    throw err;
  }
  return { ...threat, status: 'dismissed', dismissed_at: at, dismissed_by: by, dismiss_reason: reason };
}
