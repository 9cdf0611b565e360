/**
 * Threats in the single table: one item per threat definition matching in one zone (or in none),
 * in the tenant's partition (`T#tid`, `THREAT#<id>`), its id named from (library, definition,
 * zone). GSI1 (`T#tid#THREATS`, `<last_seen>#<id>`) lists them most recently seen first. The
 * counting worker keeps them (shared/domain/threats/active.ts): the count exactly once, in the
 * transaction of the event's analytics marker, the first and last times as min and max (idempotent), linked incidents as a set.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SignatureMatch } from '../vocabulary/threats.js';
import { namedId } from '../ids.js';
import type { IncidentSeverity } from '../vocabulary/incidents.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { queryPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';
import type { CounterAdd } from './analytics.js';

export const THREAT_STATUSES = ['active', 'dismissed'] as const;
export type ThreatStatus = (typeof THREAT_STATUSES)[number];

/** Incidents a threat lists at most; later ones are not added (the events still name them). */
export const MAX_LINKED_INCIDENTS = 100;

export interface Threat {
  threat_id: string;
  tenant_id: TenantId;
  library_id: string;
  definition_id: string;
  name: string;
  severity: IncidentSeverity;
  zone_id: string | null;
  status: ThreatStatus;
  count: number;
  first_seen: string;
  last_seen: string;
  incident_ids: string[];
  dismissed_at: string | null;
  dismissed_by: string | null;
  dismiss_reason: string | null;
}

/** The threat a match belongs to: its definition in its zone. */
export const threatIdOf = (
  tenantId: string,
  m: Pick<SignatureMatch, 'library_id' | 'definition_id' | 'zone_id'>,
): string => namedId(`threat\u0000${tenantId}\u0000${m.library_id}\u0000${m.definition_id}\u0000${m.zone_id ?? ''}`);

/** The times a set of events span in one threat. */
export interface ThreatGain {
  tenantId: TenantId;
  threatId: string;
  firstSeen: string;
  lastSeen: string;
}

/**
 * One newly matched event added to its threat, as a counter for the transaction of the event's
 * marker (shared/db/analytics.ts `applyGuarded`): creates the threat when new, names it as the
 * definition is now, and makes a dismissed threat active again (it matches again).
 */
export function threatCounterAdd(tenantId: TenantId, match: SignatureMatch, occurredAt: string): CounterAdd {
  const threatId = threatIdOf(tenantId, match);
  const recency = keys.threatRecency(tenantId, occurredAt, threatId);
  return {
    key: keys.threat(tenantId, threatId),
    add: { count: 1 },
    set: {
      entity: 'THREAT',
      threat_id: threatId,
      tenant_id: tenantId,
      library_id: match.library_id,
      definition_id: match.definition_id,
      name: match.name,
      severity: match.severity,
      zone_id: match.zone_id,
      status: 'active',
    },
    // A new threat is whole at once; the settling that follows widens its times (`widenThreatTimes`).
    initial: { first_seen: occurredAt, last_seen: occurredAt, GSI1PK: recency.GSI1PK, GSI1SK: recency.GSI1SK },
  };
}

const conditionFailed = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

/**
 * Moves a threat's last-seen time forward and its first-seen time back to cover `g`: each only
 * if it widens, so applying it again (a retried batch) changes nothing.
 */
export async function widenThreatTimes(g: ThreatGain): Promise<void> {
  const recency = keys.threatRecency(g.tenantId, g.lastSeen, g.threatId);
  const updates = [
    {
      set: 'last_seen = :t, GSI1PK = :gpk, GSI1SK = :gsk',
      condition: '(attribute_not_exists(last_seen) OR last_seen < :t)',
      values: { ':t': g.lastSeen, ':gpk': recency.GSI1PK, ':gsk': recency.GSI1SK },
    },
    {
      set: 'first_seen = :t',
      condition: '(attribute_not_exists(first_seen) OR first_seen > :t)',
      values: { ':t': g.firstSeen },
    },
  ];
  for (const u of updates) {
    try {
      await db.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: keys.threat(g.tenantId, g.threatId),
          UpdateExpression: `SET ${u.set}`,
          ConditionExpression: `attribute_exists(PK) AND ${u.condition}`,
          ExpressionAttributeValues: u.values,
        }),
      );
    } catch (err) {
      if (!conditionFailed(err)) throw err;
    }
  }
}

/** Adds an incident to a threat's linked incidents (a set: adding it again changes nothing), up to MAX_LINKED_INCIDENTS. */
export async function linkThreatIncident(tenantId: TenantId, threatId: string, incidentId: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.threat(tenantId, threatId),
        UpdateExpression: 'ADD incident_ids :ids',
        ConditionExpression:
          'attribute_exists(PK) AND (attribute_not_exists(incident_ids) OR size(incident_ids) < :max OR contains(incident_ids, :id))',
        ExpressionAttributeValues: { ':ids': new Set([incidentId]), ':max': MAX_LINKED_INCIDENTS, ':id': incidentId },
      }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}

function fromItem(item: Record<string, unknown>): Threat {
  const ids = item.incident_ids instanceof Set ? [...(item.incident_ids as Set<string>)].sort() : [];
  return {
    threat_id: String(item.threat_id),
    tenant_id: item.tenant_id as TenantId,
    library_id: String(item.library_id),
    definition_id: String(item.definition_id),
    name: String(item.name),
    severity: item.severity as IncidentSeverity,
    zone_id: (item.zone_id as string | null) ?? null,
    status: item.status as ThreatStatus,
    count: Number(item.count),
    first_seen: String(item.first_seen),
    last_seen: String(item.last_seen),
    incident_ids: ids,
    dismissed_at: (item.dismissed_at as string | null) ?? null,
    dismissed_by: (item.dismissed_by as string | null) ?? null,
    dismiss_reason: (item.dismiss_reason as string | null) ?? null,
  };
}

export async function getThreat(tenantId: TenantId, threatId: string): Promise<Threat | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.threat(tenantId, threatId), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

export interface ThreatFilter {
  /** Seen at or after this time. */
  since: string;
  status?: ThreatStatus;
  severity?: IncidentSeverity;
  zone_id?: string;
  library_id?: string;
  definition_id?: string;
}

/** A tenant's threats seen since `since`, most recently seen first: one Query of GSI1 over that time. */
export async function listThreats(tenantId: TenantId, filter: ThreatFilter, page: PageRequest): Promise<Threat[]> {
  const { GSI1PK } = keys.threatRecency(tenantId, filter.since, '');
  const items = await queryPage(
    {
      index: 'GSI1',
      pk: GSI1PK,
      skBetween: [filter.since, '~'],
      ascending: false,
      filter: {
        status: filter.status,
        severity: filter.severity,
        zone_id: filter.zone_id,
        library_id: filter.library_id,
        definition_id: filter.definition_id,
      },
    },
    page,
  );
  return items.map(fromItem);
}

/** Marks a threat dismissed, for a transaction with its audit entry; fails when it is gone. */
export function dismissThreatItem(
  tenantId: TenantId,
  threatId: string,
  by: string | null,
  reason: string | null,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.threat(tenantId, threatId),
      UpdateExpression: 'SET #status = :dismissed, dismissed_at = :at, dismissed_by = :by, dismiss_reason = :reason',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':dismissed': 'dismissed', ':at': at, ':by': by, ':reason': reason },
    },
  };
}
