/**
 * An event's item: what the table holds of it, and the event read back from it. The item stays
 * under 1 KB for a typical event (one write unit a copy, and an event is written to the table and
 * three or four indexes): nothing is stored twice or that can be told from elsewhere. The id is
 * the sort key; the environment and type are in their index keys (GSI1PK, GSI2PK); the receipt
 * time is the id's when the service made the id; the occurrence time is the receipt's unless the
 * client said otherwise; the source `api`, `processed: false` and nulls are left out; the score's
 * six computed factors are one list (`_`) whose weights are LAYOUT_V1's; the content hash is
 * base64url. Items written before all this (every field by name) read the same.
 */
import { pick } from './items.js';
import { correlated } from '../log.js';
import * as keys from './item-keys.js';
import { timeOfId } from '../ids.js';
import { EVENT_SOURCES } from '../schemas/events.js';
import { EVENT_FIELDS } from '../vocabulary/event-fields.js';
import type { TenantId } from '../vocabulary/tenant.js';
import type { SignatureMatch } from '../vocabulary/threats.js';

export interface StoredEvent {
  event_id: string;
  tenant_id: TenantId;
  environment_id: string | null;
  sensor_id: string | null;
  type: string;
  source: string;
  occurred_at: string;
  received_at: string;
  location: { lat: number; lon: number } | null;
  severity: string | null;
  description: string | null;
  payload: Record<string, unknown>;
  matched_zone_ids: string[];
  /** The threat definitions it matched when ingested (shared/domain/threat-libraries/matching.ts). */
  matched_signatures: SignatureMatch[];
  threat_score: number | null;
  threat_factors: Record<string, { value: number; weight: number }> | null;
  processed: boolean;
  processed_at: string | null;
  incident_id: string | null;
}

/** Fields left out of the item while they are null. */
const NULLABLE = [
  'environment_id',
  'sensor_id',
  'location',
  'severity',
  'description',
  'processed_at',
  'incident_id',
  'threat_score',
  'threat_factors',
] as const;

/** The source most events have (a client's, by default): not keyed, and not stored. */
export const DOMINANT_SOURCE = 'api';
/** The sources with a key of their own (GSI4): the others. */
export const KEYED_SOURCES: readonly string[] = EVENT_SOURCES.filter((s) => s !== DOMINANT_SOURCE);
/** The score bands with a key (GSI4), lowest first: a band holds the scores from it to the next. */
export const SCORE_BANDS: readonly string[] = ['0.5', '0.6', '0.7', '0.8', '0.9'];
/** The band key of the events of a keyed source scored below the lowest band (or not scored). */
export const NO_BAND = '-';
export const SCORE_FLOOR = Number(SCORE_BANDS[0]);

/** The band a score is in; NO_BAND below the lowest. */
export function scoreBand(score: number | null): string {
  if (score === null || !(score >= SCORE_FLOOR)) return NO_BAND;
  return SCORE_BANDS[Math.min(SCORE_BANDS.length - 1, Math.floor(score * 10 + 1e-9) - 5)]!;
}

/**
 * The six computed factors of the threat score (shared/domain/events/scoring.ts) in the order and
 * with the weights they had when the compact form was made: an item holds their values only, as
 * the list `_`. Factors of other weights (a later scoring) are stored whole, by name.
 */
const LAYOUT_V1: readonly (readonly [name: string, weight: number])[] = [
  ['type', 0.35],
  ['zone', 0.25],
  ['after_hours', 0.1],
  ['density', 0.1],
  ['sensor_health', 0.1],
  ['reported_severity', 0.1],
];

type Factors = Record<string, { value: number; weight: number }>;

function storedFactors(factors: Factors): Record<string, unknown> {
  const compact = LAYOUT_V1.every(([name, weight]) => factors[name]?.weight === weight);
  const stored: Record<string, unknown> = compact ? { _: LAYOUT_V1.map(([name]) => factors[name]!.value) } : {};
  for (const [name, f] of Object.entries(factors))
    if (!(compact && LAYOUT_V1.some(([n]) => n === name))) stored[name] = [f.value, f.weight];
  return stored;
}

function factorsFromItem(stored: Record<string, unknown>): Factors {
  const factors: Factors = {};
  const values = stored._;
  if (Array.isArray(values))
    LAYOUT_V1.forEach(([name, weight], i) => (factors[name] = { value: values[i] as number, weight }));
  for (const [name, f] of Object.entries(stored)) {
    if (name === '_') continue;
    factors[name] = Array.isArray(f) ? { value: f[0] as number, weight: f[1] as number } : (f as Factors[string]);
  }
  return factors;
}

/** The receipt time a UUIDv7's own time gives; null when the id has none. */
function receiptOfId(eventId: string): string | null {
  const ms = timeOfId(eventId);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const HEX_HASH = /^[0-9a-f]{64}$/;

/** The tenant of an event item, from its partition key (`T#<tenant_id>#EVENT`). */
const tenantOfEventPk = (pk: unknown) => String(pk).slice(2, -'#EVENT'.length);

/** What follows `prefix` in `key`, when it starts with it. */
const after = (key: unknown, prefix: string) =>
  typeof key === 'string' && key.startsWith(prefix) ? key.slice(prefix.length) : null;

/**
 * An event as the API shows it (and as EventBridge and the stream carry it), from its item, the
 * compact one or one of before. Factors are shown as `{value, weight}`; absent fields are null.
 */
export function eventFromItem(item: Record<string, unknown>): StoredEvent {
  const event = pick<StoredEvent>(item, EVENT_FIELDS);
  const tenantId = (event.tenant_id ??= tenantOfEventPk(item.PK) as TenantId);
  event.event_id ??= String(item.SK);
  event.environment_id ??= after(item.GSI1PK, keys.eventByEnvironment(tenantId, '', '').GSI1PK);
  event.type ??= after(item.GSI2PK, keys.eventByType(tenantId, '', '').GSI2PK) as string;
  event.source ??= DOMINANT_SOURCE;
  event.received_at ??= receiptOfId(event.event_id) as string;
  event.occurred_at ??= event.received_at;
  for (const field of NULLABLE) (event as unknown as Record<string, unknown>)[field] ??= null;
  event.payload ??= {};
  event.matched_zone_ids ??= [];
  event.matched_signatures ??= [];
  event.processed = item.processed === true;
  if (event.threat_factors) event.threat_factors = factorsFromItem(event.threat_factors);
  return event;
}

/** The hash of what the client sent (hex), from the item. */
export function contentHashOf(item: Record<string, unknown>): string {
  return typeof item.ch === 'string'
    ? Buffer.from(item.ch, 'base64url').toString('hex')
    : String(item.content_hash ?? '');
}

/** The hash of what the client sent, kept to tell a retry from a different event with the same id. */
export interface EventRecord {
  event: StoredEvent;
  contentHash: string;
  /** Epoch seconds when the event expires (the tenant's retention). */
  expiresAt: number;
}

/**
 * The event's GSI4 keys (shared/db/item-keys.ts `eventFilter`): for a keyed source or a score in
 * a band; none for the dominant source below the bands, most events.
 */
export function eventFilterKeys(
  tenantId: TenantId,
  event: Pick<StoredEvent, 'event_id' | 'source' | 'threat_score' | 'type' | 'environment_id'>,
): { GSI4PK: string; GSI4SK: string } | null {
  const band = scoreBand(event.threat_score);
  if (event.source === DOMINANT_SOURCE && band === NO_BAND) return null;
  return keys.eventFilter(tenantId, event.source, band, event.event_id, {
    score: event.threat_score,
    type: event.type,
    environmentId: event.environment_id,
  });
}

/**
 * The stored form (see the top of this file). Written to the table and the indexes of
 * environment (GSI1) and type (GSI2), and of sequence (GSI5, shared/db/event-sequence.ts); the
 * processed index (GSI3) is sparse: an event enters it when marked processed; so is the filters'
 * (GSI4, keys only).
 */
export function eventItem({ event, contentHash, expiresAt }: EventRecord): Record<string, unknown> {
  const {
    tenant_id: tenantId,
    event_id: eventId,
    environment_id: environmentId,
    type,
    threat_factors: factors,
    ...fields
  } = event;
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== null) stored[name] = value;
  // Most events match no definition and come from the dominant source.
  if (event.matched_signatures.length === 0) delete stored.matched_signatures;
  if (event.source === DOMINANT_SOURCE) delete stored.source;
  if (!event.processed) delete stored.processed;
  if (event.received_at === receiptOfId(eventId)) delete stored.received_at;
  if (event.occurred_at === event.received_at) delete stored.occurred_at;
  if (factors) stored.threat_factors = storedFactors(factors);
  const filterKeys = eventFilterKeys(tenantId, event);
  return {
    ...keys.event(tenantId, eventId),
    ...(environmentId ? keys.eventByEnvironment(tenantId, environmentId, eventId) : {}),
    ...keys.eventByType(tenantId, type, eventId),
    ...(event.processed ? keys.eventProcessed(tenantId, eventId) : {}),
    ...filterKeys,
    entity: 'EVENT',
    ...stored,
    ...(HEX_HASH.test(contentHash)
      ? { ch: Buffer.from(contentHash, 'hex').toString('base64url') }
      : { content_hash: contentHash }),
    expires_at: expiresAt,
    // The request's (or the record's) that stored it: published with it (shared/log.ts).
    ...correlated(),
  };
}
