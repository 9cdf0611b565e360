/**
 * Events in the single table: one partition per tenant (`T#<tid>#EVENT`) sorted by UUIDv7 event
 * id, so time ranges are key ranges; GSI1 by environment, GSI2 by type, GSI3 (sparse) while
 * unprocessed. Each stored event goes out to EventBridge through the table's stream (see
 * shared/workers), so storing is the only thing ingest must get right.
 */
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { backoff, readItems, type ItemKey, type Prefetched } from './read-batch.js';
import { db, TABLE } from './client.js';
import { pick } from './items.js';
import { correlated } from '../log.js';
import * as keys from './item-keys.js';
import { tenantPk } from './keys.js';
import { forEachPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';
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

export const EVENT_FIELDS = [
  'event_id',
  'tenant_id',
  'environment_id',
  'sensor_id',
  'type',
  'source',
  'occurred_at',
  'received_at',
  'location',
  'severity',
  'description',
  'payload',
  'matched_zone_ids',
  'matched_signatures',
  'threat_score',
  'threat_factors',
  'processed',
  'processed_at',
  'incident_id',
] as const;

/** Fields left out of the item while they are null (the item stays under 1 KB: one write unit). */
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

/** The tenant of an event item, from its partition key (`T#<tenant_id>#EVENT`). */
const tenantOfEventPk = (pk: unknown) => String(pk).slice(2, -'#EVENT'.length);

/**
 * An event as the API shows it (and as EventBridge and the stream carry it). Factors are kept as
 * `[value, weight]` pairs and shown as `{value, weight}`; absent fields are null.
 */
export function eventFromItem(item: Record<string, unknown>): StoredEvent {
  const event = pick<StoredEvent>(item, EVENT_FIELDS);
  event.tenant_id ??= tenantOfEventPk(item.PK) as TenantId;
  for (const field of NULLABLE) (event as unknown as Record<string, unknown>)[field] ??= null;
  event.payload ??= {};
  event.matched_zone_ids ??= [];
  event.matched_signatures ??= [];
  event.processed = item.processed === true;
  if (event.threat_factors) {
    event.threat_factors = Object.fromEntries(
      Object.entries(event.threat_factors as Record<string, unknown>).map(([name, f]) => [
        name,
        Array.isArray(f) ? { value: f[0] as number, weight: f[1] as number } : (f as { value: number; weight: number }),
      ]),
    );
  }
  return event;
}

/** The hash of what the client sent, kept to tell a retry from a different event with the same id. */
export interface EventRecord {
  event: StoredEvent;
  contentHash: string;
  /** Epoch seconds when the event expires (the tenant's retention). */
  expiresAt: number;
}

/**
 * The stored form: the tenant is in the key, nulls are left out, factors are `[value, weight]`
 * pairs. Written to the table and two indexes (environment, type): 3 write units while the item
 * is under 1 KB. The processed index (GSI3) is sparse: an event enters it when marked processed.
 */
export function eventItem({ event, contentHash, expiresAt }: EventRecord): Record<string, unknown> {
  const { tenant_id: tenantId, threat_factors: factors, ...fields } = event;
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== null) stored[name] = value;
  // Most events match no definition: the item stays small.
  if (event.matched_signatures.length === 0) delete stored.matched_signatures;
  if (factors)
    stored.threat_factors = Object.fromEntries(Object.entries(factors).map(([name, f]) => [name, [f.value, f.weight]]));
  return {
    ...keys.event(tenantId, event.event_id),
    ...(event.environment_id ? keys.eventByEnvironment(tenantId, event.environment_id, event.event_id) : {}),
    ...keys.eventByType(tenantId, event.type, event.event_id),
    ...(event.processed ? keys.eventProcessed(tenantId, event.event_id) : {}),
    entity: 'EVENT',
    ...stored,
    content_hash: contentHash,
    expires_at: expiresAt,
    // The request's (or the record's) that stored it: published with it (shared/log.ts).
    ...correlated(),
  };
}

export async function getEvent(
  tenantId: TenantId,
  eventId: string,
): Promise<(StoredEvent & { content_hash?: string }) | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.event(tenantId, eventId), ConsistentRead: true }),
  );
  return out.Item ? { ...eventFromItem(out.Item), content_hash: out.Item.content_hash as string | undefined } : null;
}

export const eventKey = (tenantId: TenantId, eventId: string): ItemKey => keys.event(tenantId, eventId);

/** Events of a tenant by id, in one round trip per 100; ids without an event are absent from the map. */
export async function getEvents(tenantId: TenantId, eventIds: readonly string[]): Promise<Map<string, StoredEvent>> {
  const read = await readItems(eventIds.map((id) => eventKey(tenantId, id)));
  const found = new Map<string, StoredEvent>();
  for (const id of eventIds) {
    const item = read.get(eventKey(tenantId, id));
    if (item) found.set(id, eventFromItem(item));
  }
  return found;
}

/**
 * Points an event at `to` (an incident id, or null for none) if it still points at `from`: the
 * event side of a link, written with the incident side in one transaction.
 */
export function setEventIncident(
  tenantId: TenantId,
  eventId: string,
  from: string | null,
  to: string | null,
): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.event(tenantId, eventId),
      UpdateExpression: 'SET incident_id = :to',
      ConditionExpression:
        from === null
          ? 'attribute_exists(PK) AND (attribute_not_exists(incident_id) OR incident_id = :null)'
          : 'incident_id = :from',
      ExpressionAttributeValues: from === null ? { ':to': to, ':null': null } : { ':to': to, ':from': from },
    },
  };
}

/** A stored event among items read in one batch, with the hash of what its client sent; null when there is none. */
export function storedEventFrom(
  read: Prefetched,
  tenantId: TenantId,
  eventId: string,
): { hash: string; event: StoredEvent } | null {
  const item = read.get(eventKey(tenantId, eventId));
  return item ? { hash: String(item.content_hash ?? ''), event: eventFromItem(item) } : null;
}

/**
 * Writes the items, 25 to a BatchWriteItem and the batches at once, and retries what DynamoDB
 * leaves unprocessed, with growing pauses, until all are stored; throws when it cannot (the
 * caller answers an error, so nothing half-written is reported as success).
 */
export async function writeAll(
  items: Record<string, unknown>[],
  options: {
    inOrder?: boolean;
    /** Called with the items of each attempt before it is sent; answers what to send (event sequence numbers renewed). */
    beforeAttempt?: (items: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>;
  } = {},
): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  if (options.inOrder && chunks.length > 1) {
    // One chunk after the other: the table's stream carries them in this order.
    for (const chunk of chunks) await writeAll(chunk, { beforeAttempt: options.beforeAttempt });
    return;
  }
  // Every chunk is finished before a failure is reported: nothing of this request is still being
  // written when its caller (or a retry taking over) acts on the failure.
  const settled = await Promise.allSettled(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error(`the table kept refusing ${pending.length} writes; try again`);
        if (attempt > 0) await backoff(attempt);
        if (options.beforeAttempt) pending = await options.beforeAttempt(pending);
        const out = await db.send(
          new BatchWriteCommand({ RequestItems: { [TABLE]: pending.map((Item) => ({ PutRequest: { Item } })) } }),
        );
        pending = ((out.UnprocessedItems?.[TABLE] ?? []) as { PutRequest: { Item: Record<string, unknown> } }[]).map(
          (r) => r.PutRequest.Item,
        );
      }
    }),
  );
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export interface EventQuery {
  environmentId?: string;
  type?: string;
  processed?: boolean;
  /** Events whose geofence match includes this zone. */
  zoneId?: string;
  /** Events scored at least this. */
  minScore?: number;
  source?: string;
  /** Fields of the payload that must equal these (top level): a watchlist alert's entry or trigger. */
  payloadEquals?: Readonly<Record<string, string>>;
  /** Inclusive id bounds (UUIDv7 of the time bounds). */
  fromId?: string;
  toId?: string;
  /** A test no key or filter expression can make (free text): applied to what each Query returns, within EVENT_READ_LIMIT. */
  matches?: (event: StoredEvent) => boolean;
}

/** Events a page may read from its key to find its matches; past it the page says so. */
export const EVENT_READ_LIMIT = 10_000;
/** The first read of a filtered page, in events, when the page itself asks for fewer. */
const FIRST_FILTERED_READ = 50;

export interface EventPage {
  events: StoredEvent[];
  /** The filters left matches unread: EVENT_READ_LIMIT events were read before the page filled. */
  readLimitReached: boolean;
}

/**
 * A tenant's events, newest first, served by the narrowest key: processed (GSI3, sparse),
 * environment (GSI1; a zone's filter reads its environment's), type (GSI2), or the tenant's
 * partition; the other filters apply within (unprocessed ones are most events, so that filter
 * drops few). A page reads `offset + limit` items when no filter applies; a filtered one reads
 * twice that first (at least FIRST_FILTERED_READ) and four times more each further call while the
 * filters drop events, up to EVENT_READ_LIMIT events read.
 */
export async function listEvents(tenantId: TenantId, q: EventQuery, page: PageRequest): Promise<EventPage> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let input: QueryCommandInput;
  const range = (skName: string, prefix = '') => {
    names['#sk'] = skName;
    values[':from'] = `${prefix}${q.fromId ?? '0'}`;
    values[':to'] = `${prefix}${q.toId ?? 'g'}`;
    return ' AND #sk BETWEEN :from AND :to';
  };
  const filters: string[] = [];
  if (q.processed === true) {
    names['#pk'] = 'GSI3PK';
    values[':pk'] = keys.eventProcessed(tenantId, '').GSI3PK;
    input = { TableName: TABLE, IndexName: 'GSI3', KeyConditionExpression: `#pk = :pk${range('GSI3SK')}` };
    if (q.environmentId) filters.push('environment_id = :env');
    if (q.type) filters.push('#type = :type');
  } else if (q.environmentId) {
    names['#pk'] = 'GSI1PK';
    values[':pk'] = keys.eventByEnvironment(tenantId, q.environmentId, '').GSI1PK;
    input = { TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: `#pk = :pk${range('GSI1SK', 'EVENT#')}` };
    if (q.type) filters.push('#type = :type');
  } else if (q.type) {
    names['#pk'] = 'GSI2PK';
    values[':pk'] = keys.eventByType(tenantId, q.type, '').GSI2PK;
    input = { TableName: TABLE, IndexName: 'GSI2', KeyConditionExpression: `#pk = :pk${range('GSI2SK')}` };
  } else {
    names['#pk'] = 'PK';
    values[':pk'] = keys.event(tenantId, '').PK;
    input = { TableName: TABLE, KeyConditionExpression: `#pk = :pk${range('SK')}`, ConsistentRead: true };
  }
  if (q.environmentId && filters.includes('environment_id = :env')) values[':env'] = q.environmentId;
  if (q.type && filters.includes('#type = :type')) {
    names['#type'] = 'type';
    values[':type'] = q.type;
  }
  if (q.processed === false) {
    names['#processed'] = 'processed';
    filters.push('#processed <> :true');
    values[':true'] = true;
  }
  if (q.zoneId !== undefined) {
    names['#zones'] = 'matched_zone_ids';
    filters.push('contains(#zones, :zone)');
    values[':zone'] = q.zoneId;
  }
  if (q.minScore !== undefined) {
    names['#score'] = 'threat_score';
    filters.push('#score >= :minScore');
    values[':minScore'] = q.minScore;
  }
  if (q.source !== undefined) {
    names['#source'] = 'source';
    filters.push('#source = :source');
    values[':source'] = q.source;
  }
  Object.entries(q.payloadEquals ?? {}).forEach(([field, value], i) => {
    names['#payload'] = 'payload';
    names[`#pf${i}`] = field;
    filters.push(`#payload.#pf${i} = :pv${i}`);
    values[`:pv${i}`] = value;
  });
  input = {
    ...input,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    FilterExpression: filters.length > 0 ? filters.join(' AND ') : undefined,
    ScanIndexForward: false,
  };
  const wanted = page.offset + page.limit;
  const items: StoredEvent[] = [];
  const filtered = filters.length > 0 || q.matches !== undefined;
  let startKey: Record<string, unknown> | undefined;
  let read = 0;
  // A filtered read starts at twice what the page still needs (most filters keep most events) and
  // grows fourfold a call while they drop more: a page of 20 costs about 40 items, not 1,000.
  let batch = Math.max(2 * wanted, FIRST_FILTERED_READ);
  do {
    const limit = filtered ? Math.min(1000, EVENT_READ_LIMIT - read, batch) : Math.min(1000, wanted - items.length);
    batch *= 4;
    const out = await db.send(new QueryCommand({ ...input, Limit: limit, ExclusiveStartKey: startKey }));
    const got = (out.Items ?? []).map(eventFromItem);
    items.push(...(q.matches ? got.filter(q.matches) : got));
    read += out.ScannedCount ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < wanted && read < EVENT_READ_LIMIT);
  return { events: items.slice(page.offset, wanted), readLimitReached: Boolean(startKey) && items.length < wanted };
}

/**
 * The update that marks an event processed (or not): the flag and its time, the unprocessed index
 * entry removed or put back, and an operator's threat score and incident when given. Only for an
 * event that exists; a new incident only if the event still names `incidentWas` (the incident
 * side of the link is written in the same transaction).
 */
export function markProcessedUpdate(
  tenantId: TenantId,
  eventId: string,
  update: { processed: boolean; threat_score?: number; incident_id?: string | null },
  at: string,
  hasFactors: boolean,
  incidentWas: string | null = null,
): TransactItem {
  // Every attribute by placeholder: `processed` is a reserved word in DynamoDB expressions.
  const names: Record<string, string> = { '#processed': 'processed', '#processedAt': 'processed_at' };
  const values: Record<string, unknown> = { ':processed': update.processed, ':at': update.processed ? at : null };
  const sets = ['#processed = :processed', '#processedAt = :at'];
  let remove = '';
  if (update.processed) {
    const processed = keys.eventProcessed(tenantId, eventId);
    sets.push('GSI3PK = :g3pk', 'GSI3SK = :g3sk');
    values[':g3pk'] = processed.GSI3PK;
    values[':g3sk'] = processed.GSI3SK;
  } else {
    remove = ' REMOVE GSI3PK, GSI3SK';
  }
  if (update.threat_score !== undefined) {
    names['#score'] = 'threat_score';
    names['#factors'] = 'threat_factors';
    sets.push('#score = :score', '#factors.operator_override = :override');
    values[':score'] = update.threat_score;
    values[':override'] = [update.threat_score, 1];
  }
  let condition = 'attribute_exists(PK)';
  if (update.incident_id !== undefined) {
    names['#incident'] = 'incident_id';
    sets.push('#incident = :incident');
    values[':incident'] = update.incident_id;
    if (incidentWas === null) {
      condition += ' AND (attribute_not_exists(#incident) OR #incident = :none)';
      values[':none'] = null;
    } else {
      condition += ' AND #incident = :was';
      values[':was'] = incidentWas;
    }
  }
  if (!hasFactors && update.threat_score !== undefined) {
    // No computed factors to extend: start the map.
    sets.splice(sets.indexOf('#factors.operator_override = :override'), 1, '#factors = :factors');
    values[':factors'] = { operator_override: [update.threat_score, 1] };
    delete values[':override'];
  }
  return {
    Update: {
      TableName: TABLE,
      Key: keys.event(tenantId, eventId),
      UpdateExpression: `SET ${sets.join(', ')}${remove}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Moves a tenant's events stored before the processed index (GSI3 held the unprocessed ones,
 * `T#tid#UNPROCESSED`) to today's keys: processed events enter `T#tid#PROCESSED`, unprocessed
 * ones leave GSI3. Idempotent: a second run finds nothing to change. Returns the events changed.
 */
export async function reindexEventsOfTenant(tenantId: TenantId): Promise<number> {
  const old = `${tenantPk(tenantId)}#UNPROCESSED`;
  let changed = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'GSI3PK = :old OR (#processed = :true AND attribute_not_exists(GSI3PK))',
      ExpressionAttributeNames: { '#processed': 'processed' },
      ExpressionAttributeValues: { ':pk': keys.event(tenantId, '').PK, ':old': old, ':true': true },
      ProjectionExpression: 'SK, #processed',
    },
    async (page) => {
      for (const item of page.Items ?? []) {
        const eventId = String(item.SK);
        const processed = item.processed === true;
        const index = keys.eventProcessed(tenantId, eventId);
        await db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: keys.event(tenantId, eventId),
            UpdateExpression: processed ? 'SET GSI3PK = :g3pk, GSI3SK = :g3sk' : 'REMOVE GSI3PK, GSI3SK',
            ConditionExpression: 'attribute_exists(PK)',
            ...(processed ? { ExpressionAttributeValues: { ':g3pk': index.GSI3PK, ':g3sk': index.GSI3SK } } : {}),
          }),
        );
        changed++;
      }
    },
  );
  return changed;
}

/**
 * Sets each of the tenant's events' TTL to `expiryOf(event_id)` where it differs (a plan change:
 * the `retention-restamp` worker). One Query of the tenant's event partition and an UpdateItem per
 * event to change, only while the event exists; doing it again changes nothing. The items are read
 * whole (a projection would cost the same read units: they are counted on the items' size) and
 * each changed chunk goes to `stamped` with its new TTL, for what expires with the events (their
 * mention index items). Returns how many it changed.
 */
export async function restampEventExpiry(
  tenantId: TenantId,
  expiryOf: (eventId: string) => number,
  stamped: (events: { event: StoredEvent; expiresAt: number }[]) => Promise<unknown>,
): Promise<number> {
  let changed = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.event(tenantId, '').PK },
    },
    async (page) => {
      const stale = (page.Items ?? []).filter((item) => item.expires_at !== expiryOf(String(item.SK)));
      for (let i = 0; i < stale.length; i += 25) {
        const chunk = stale
          .slice(i, i + 25)
          .map((item) => ({ event: eventFromItem(item), expiresAt: expiryOf(String(item.SK)) }));
        const kept = await Promise.all(
          chunk.map(({ event, expiresAt }) =>
            db
              .send(
                new UpdateCommand({
                  TableName: TABLE,
                  Key: keys.event(tenantId, event.event_id),
                  UpdateExpression: 'SET #ttl = :ttl',
                  ConditionExpression: 'attribute_exists(PK)',
                  ExpressionAttributeNames: { '#ttl': 'expires_at' },
                  ExpressionAttributeValues: { ':ttl': expiresAt },
                }),
              )
              .then(
                () => true,
                (err: unknown) => {
                  // Deleted meanwhile (its TTL ran): nothing to stamp, and nothing expires with it.
                  if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
                  return false;
                },
              ),
          ),
        );
        await stamped(chunk.filter((_, j) => kept[j]));
      }
      changed += stale.length;
    },
  );
  return changed;
}
