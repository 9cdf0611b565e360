/**
 * Incidents in the single table: one partition per incident (`T#<tid>#INC#<id>`) holding the
 * incident item (with its status changes), its timeline entries (shared/db/incident-timeline.ts)
 * and its acknowledgement tokens; the tenant's list is rows of keys (shared/db/incident-list.ts).
 * Feed entries live in `T#<tid>#FEED`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { IncidentSeverity, IncidentStatus, Resolution } from '../vocabulary/incidents.js';
import { db, TABLE } from './client.js';
import { putNew, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import { queryPage } from './query.js';
import { eventFromItem, eventKey } from './events.js';
import { readItems } from './read-batch.js';
import { SITE_KINDS, siteEntityFromItem, siteEntityKey, type Zone } from './site-entities.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';
import {
  entriesOnItem,
  readWithTimeline,
  summaryOf,
  TIMELINE_LAYOUT,
  timelinePuts,
  type HistoryEntry,
} from './incident-timeline.js';
import { deleteRows, listChange, putRows } from './incident-list.js';
import { AFTER_WRITE, BEFORE_WRITE } from './transact.js';

export type { HistoryEntry } from './incident-timeline.js';

/** What a voice report added: the recording, its transcript and the fields read from it. */
export interface VoiceReport {
  audio_key: string | null;
  transcript: string | null;
  /**
   * `completed`; `pending` while Amazon Transcribe still works on a long recording; `failed` when
   * its job failed (the follow-up questions then ask for everything).
   */
  transcription_status: 'completed' | 'pending' | 'failed';
  transcription_job: string | null;
  /** Why the job failed, as Transcribe said. */
  transcription_error?: string | null;
  fields: Record<string, unknown>;
  missing_fields: string[];
  follow_up_questions: string[];
  /** Words the recogniser was unsure of. */
  unsure_words?: string[];
  /** Words heard that set no field because they were unsure or ambiguous; their fields are asked. */
  doubts?: { field: 'type' | 'severity'; word: string }[];
}

export interface Incident {
  incident_id: string;
  tenant_id: TenantId;
  title: string;
  description: string | null;
  type: string | null;
  severity: IncidentSeverity;
  status: IncidentStatus;
  resolution: Resolution | null;
  resolution_notes: string | null;
  source: 'manual' | 'voice' | 'public' | 'event' | 'workflow';
  environment_id: string | null;
  location: { lat: number; lon: number } | null;
  location_text: string | null;
  occurred_at: string | null;
  assignee_id: string | null;
  escalation_level: number;
  /** When acknowledgement is due (set on confirmation, by severity). */
  sla_due_at: string | null;
  /** When the SLA was breached (its due time), once the scheduler saw it unacknowledged then. */
  sla_breached_at: string | null;
  /** When the scheduler raises the level next if nobody acknowledges it; null once acknowledged. */
  next_escalation_at: string | null;
  summary: string | null;
  event_ids: string[];
  /** Zones it is in: those its linked events matched, and those containing its location when opened. */
  zone_ids: string[];
  /** Internal: the zones of its location when opened (kept to recompute `zone_ids` when an event leaves). */
  location_zone_ids?: string[];
  voice?: VoiceReport | null;
  /**
   * Its timeline as far as this copy knows it: read from the table, the status changes (and, on
   * an item of before the timeline items, every entry); a change appends its entries here.
   */
  history: HistoryEntry[];
  created_at: string;
  updated_at: string;
}

export type StoredIncident = Incident & { version: number };

const INTERNAL = new Set([
  ...['', 'GSI1', 'GSI2', 'GSI3'].flatMap((index) => [`${index}PK`, `${index}SK`]),
  'entity',
  'layout',
  'timeline_split',
]);

/** Fields added after incidents were first stored, as older items read. */
const ADDED_FIELDS = { sla_breached_at: null, next_escalation_at: null, zone_ids: [] };

/** How a read incident was stored: its layout, and how many entries of its `history` were read. */
interface Stored {
  listed: boolean;
  /** Leading entries of `history` that are on the item only (an item of before the timeline items). */
  onItem: number;
  read: number;
}
const storedAs = new WeakMap<object, Stored>();

function fromItem(item: Record<string, unknown>): StoredIncident {
  const incident = {
    ...ADDED_FIELDS,
    ...Object.fromEntries(Object.entries(item).filter(([k]) => !INTERNAL.has(k))),
  } as unknown as StoredIncident;
  incident.history ??= [];
  storedAs.set(incident, {
    listed: item.layout === TIMELINE_LAYOUT,
    onItem: entriesOnItem(item),
    read: incident.history.length,
  });
  return incident;
}

/**
 * A new incident: its item (with its status changes), its timeline entries, its list counts (those
 * the transaction cannot hold, for an incident in many zones, just after it); its list rows just before.
 */
export function putNewIncident(i: Incident): TransactItem[] {
  const list = listChange(null, i, 1);
  return [
    {
      ...putNew({
        ...keys.incident(i.tenant_id, i.incident_id),
        entity: 'INCIDENT',
        ...i,
        history: summaryOf(i.history),
        layout: TIMELINE_LAYOUT,
        version: 1,
      }),
      [BEFORE_WRITE]: () => putRows(list.puts, 1),
    },
    ...timelinePuts(i.tenant_id, i.incident_id, 1, i.history),
    ...list.counts,
  ];
}

/**
 * Writes the changed fields if `current` is still at its version (item 0), the timeline entries
 * appended to `next.history` since `current` was read (items of their own) and the counts of the
 * list scopes it joins or leaves (those the transaction cannot hold, 100 items in all, in a pending
 * item applied just after it: shared/db/incident-list-counts.ts, so any number of zones joined or
 * left fits); the list rows it moves to are put just before the transaction
 * (BEFORE_WRITE) and the rows it leaves deleted once it is in (AFTER_WRITE), so no transaction
 * grows with the incident's zones, whoever runs it.
 */
export function updateIncident(current: StoredIncident, next: Incident, fields: (keyof Incident)[]): TransactItem[] {
  const stored = storedOf(current);
  const added = next.history.slice(stored.read);
  const changed: Record<string, unknown> = Object.fromEntries(
    fields.filter((f) => f !== 'history').map((f) => [f, next[f]]),
  );
  if (added.length > 0) changed.history = [...next.history.slice(0, stored.read), ...summaryOf(added)];
  if (!stored.listed) changed.timeline_split = stored.onItem;
  const version = current.version + 1;
  // An item of before the list rows has none to move: the migration writes them.
  const list = stored.listed ? listChange(current, next, version) : null;
  const update: TransactItem = versionedUpdate(
    keys.incident(next.tenant_id, next.incident_id),
    { ...changed, updated_at: next.updated_at },
    current.version,
  );
  if (list && list.puts.length > 0) update[BEFORE_WRITE] = () => putRows(list.puts, version);
  if (list && list.deletes.length > 0) update[AFTER_WRITE] = () => deleteRows(list.deletes, version);
  return [update, ...timelinePuts(next.tenant_id, next.incident_id, version, added), ...(list?.counts ?? [])];
}

/** The list rows a new incident put, when its transaction failed (not for an id that exists: they may be its). */
export async function dropNewIncidentRows(i: Incident): Promise<void> {
  await deleteRows(listChange(null, i, 1).puts, 1);
}

const storedOf = (i: StoredIncident): Stored => storedAs.get(i) ?? { listed: true, onItem: 0, read: i.history.length };

export async function getIncident(tenantId: TenantId, incidentId: string): Promise<StoredIncident | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.incident(tenantId, incidentId), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

/** Incidents of a tenant by id, in one round trip; ids without an incident are absent from the map. */
export async function getIncidents(
  tenantId: TenantId,
  incidentIds: readonly string[],
): Promise<Map<string, StoredIncident>> {
  const read = await readItems(incidentIds.map((id) => keys.incident(tenantId, id)));
  const found = new Map<string, StoredIncident>();
  for (const id of incidentIds) {
    const item = read.get(keys.incident(tenantId, id));
    if (item) found.set(id, fromItem(item));
  }
  return found;
}

/** An incident with its whole timeline (the replay and the snapshot): one Query of its partition. */
export async function getIncidentWithTimeline(
  tenantId: TenantId,
  incidentId: string,
): Promise<{ incident: StoredIncident; timeline: HistoryEntry[] } | null> {
  const { item, timeline } = await readWithTimeline(tenantId, incidentId);
  return item ? { incident: fromItem(item), timeline } : null;
}

export interface StoredAckToken {
  incident_id: string;
  tenant_id: TenantId;
  token_hash: string;
  expires_at_iso: string;
  addressed_to: string[];
  /** When the link acknowledged its incident; a used link is kept (until TTL) so its page can say so. */
  used_at?: string | null;
}

export function putAckToken(t: StoredAckToken): TransactItem {
  return putNew({
    ...keys.ackToken(t.tenant_id, t.incident_id, t.token_hash),
    entity: 'ACK_TOKEN',
    ...t,
    // TTL removes it some time after it expired; reads check `expires_at_iso` themselves.
    expires_at: Math.floor(Date.parse(t.expires_at_iso) / 1000) + 86_400,
  });
}

export async function getAckToken(
  tenantId: TenantId,
  incidentId: string,
  tokenHash: string,
): Promise<StoredAckToken | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.ackToken(tenantId, incidentId, tokenHash), ConsistentRead: true }),
  );
  return out.Item ? (out.Item as unknown as StoredAckToken) : null;
}

/** Marks the link used, once: a second use (a concurrent click) fails the transaction's condition. */
export function useAckToken(tenantId: TenantId, incidentId: string, tokenHash: string, at: string): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.ackToken(tenantId, incidentId, tokenHash),
      UpdateExpression: 'SET used_at = :at',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(used_at)',
      ExpressionAttributeValues: { ':at': at },
    },
  };
}

/** A link's token and its incident, in one round trip (the acknowledgement page). */
export async function getAckTokenAndIncident(
  tenantId: TenantId,
  incidentId: string,
  tokenHash: string,
): Promise<{ token: StoredAckToken | null; incident: StoredIncident | null }> {
  const tokenKey = keys.ackToken(tenantId, incidentId, tokenHash);
  const incidentKey = keys.incident(tenantId, incidentId);
  const read = await readItems([tokenKey, incidentKey]);
  const token = read.get(tokenKey);
  const incident = read.get(incidentKey);
  return {
    token: token ? (token as unknown as StoredAckToken) : null,
    incident: incident ? fromItem(incident) : null,
  };
}

/** A voice draft waiting for its Transcribe job (docs/data-model.md). */
export interface PendingTranscription {
  tenant_id: TenantId;
  job_name: string;
  incident_id: string;
}

export function putPendingTranscription(p: PendingTranscription): TransactItem {
  return putNew({
    ...keys.transcriptionJob(p.tenant_id, p.job_name, p.incident_id),
    entity: 'TRANSCRIPTION_JOB',
    ...p,
  });
}

/** The drafts waiting for this job. */
export async function pendingTranscriptions(tenantId: TenantId, jobName: string): Promise<PendingTranscription[]> {
  const { PK, SK } = keys.transcriptionJob(tenantId, jobName, '');
  const items = await queryPage({ pk: PK, skPrefix: SK, consistent: true }, { limit: 100, offset: 0 });
  return items.map((i) => ({ tenant_id: tenantId, job_name: jobName, incident_id: i.incident_id as string }));
}

/** Ends the wait in the transaction that completes the draft; fails if another run ended it. */
export function endPendingTranscription(p: PendingTranscription): TransactItem {
  return {
    Delete: {
      TableName: TABLE,
      Key: keys.transcriptionJob(p.tenant_id, p.job_name, p.incident_id),
      ConditionExpression: 'attribute_exists(PK)',
    },
  };
}

export interface FeedEntry {
  entry_id: string;
  at: string;
  kind: string;
  incident_id: string;
  title: string;
  severity: string;
  status: string;
  by: string;
}

const FEED_DAYS = 30;

export function putFeedEntry(tenantId: TenantId, e: FeedEntry): TransactItem {
  return putNew({
    ...keys.feed(tenantId, e.entry_id),
    entity: 'FEED',
    ...e,
    expires_at: Math.floor(Date.parse(e.at) / 1000) + FEED_DAYS * 86_400,
  });
}

export async function listFeed(tenantId: TenantId, page: { limit: number; offset: number }): Promise<FeedEntry[]> {
  const items = await queryPage({ pk: keys.feed(tenantId, '').PK, ascending: false, consistent: true }, page);
  return items.map((i) => {
    const { PK: _p, SK: _s, entity: _e, expires_at: _x, ...entry } = i;
    return entry as unknown as FeedEntry;
  });
}

/** Where an incident without a place of its own is, from what it links (for its acknowledgement page). */
export interface LinkedPlace {
  /** The names of its zones (the first few), in its order. */
  zoneNames: string[];
  /** The location of its first linked event that has one. */
  eventLocation: { lat: number; lon: number } | null;
}

/** The first `max` zones and events an incident links: one BatchGetItem. */
export async function linkedPlace(
  tenantId: TenantId,
  zoneIds: readonly string[],
  eventIds: readonly string[],
  max = 5,
): Promise<LinkedPlace> {
  const zoneKeys = zoneIds.slice(0, max).map((id) => siteEntityKey(SITE_KINDS.zone, tenantId, id));
  const eventKeys = eventIds.slice(0, max).map((id) => eventKey(tenantId, id));
  if (zoneKeys.length + eventKeys.length === 0) return { zoneNames: [], eventLocation: null };
  const read = await readItems([...zoneKeys, ...eventKeys]);
  const zoneNames = zoneKeys.flatMap((k) => {
    const zone = read.get(k);
    return zone ? [siteEntityFromItem<Zone>(zone).name] : [];
  });
  const events = eventKeys.flatMap((k) => {
    const item = read.get(k);
    return item ? [eventFromItem(item)] : [];
  });
  return { zoneNames, eventLocation: events.find((e) => e.location)?.location ?? null };
}
