/**
 * Pages of a tenant's events, newest first, each served by the narrowest key: processed (GSI3,
 * sparse); a source other than the dominant one or a score of at least the lowest band (GSI4,
 * sparse, keys only); environment (GSI1; a zone's filter reads its environment's); type (GSI2);
 * or the tenant's partition. The other filters apply within.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { readItems, type ItemKey } from './read-batch.js';
import type { PageRequest } from './query.js';
import {
  DOMINANT_SOURCE,
  KEYED_SOURCES,
  NO_BAND,
  SCORE_BANDS,
  SCORE_FLOOR,
  eventFromItem,
  scoreBand,
  type StoredEvent,
} from './event-items.js';
import { EVENT_SOURCES } from '../schemas/events.js';
import type { TenantId } from '../vocabulary/tenant.js';

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
  /** When readLimitReached: the id of the oldest event the page looked at (every newer one was). */
  readBackTo?: string;
}

/** The event id of an index or table sort key: `<id>`, `EVENT#<id>`, or GSI4's `<id>#<score>#...`. */
const idOfSortKey = (sk: unknown): string | undefined =>
  typeof sk === 'string' ? sk.replace(/^EVENT#/, '').split('#')[0] : undefined;

/**
 * A tenant's events, newest first. A source other than the dominant one, or a score of at least
 * the lowest band, is served by its key (GSI4: keyedPage), unless the page asks for processed
 * events (GSI3: the few an operator marked). Else the narrowest of environment, type or the
 * tenant's partition (queriedPage); there the dominant source, an unprocessed state and a score
 * below the bands are filters that drop few (most events are from `api`, unprocessed, and score
 * below 0.5).
 */
export async function listEvents(tenantId: TenantId, q: EventQuery, page: PageRequest): Promise<EventPage> {
  const partitions = q.processed === true ? null : keyedPartitions(tenantId, q);
  return partitions ? keyedPage(q, partitions, page) : queriedPage(tenantId, q, page);
}

/** The GSI4 partitions holding every event of a keyed source or score `q` asks for; null when it asks for neither. */
function keyedPartitions(tenantId: TenantId, q: EventQuery): string[] | null {
  const byScore = q.minScore !== undefined && q.minScore >= SCORE_FLOOR;
  const bySource = q.source !== undefined && KEYED_SOURCES.includes(q.source);
  if (!byScore && !bySource) return null;
  const sources = q.source !== undefined ? [q.source] : EVENT_SOURCES;
  const bands = byScore ? SCORE_BANDS.slice(SCORE_BANDS.indexOf(scoreBand(q.minScore!))) : [NO_BAND, ...SCORE_BANDS];
  return sources.flatMap((source) => bands.map((band) => keys.eventFilterPartition(tenantId, source, band).GSI4PK));
}

/** What an event must be beyond its key: every filter of `q`, tested on the event read. */
function eventTest(q: EventQuery): (e: StoredEvent) => boolean {
  return (e) =>
    (q.environmentId === undefined || e.environment_id === q.environmentId) &&
    (q.type === undefined || e.type === q.type) &&
    (q.processed === undefined || e.processed === q.processed) &&
    (q.zoneId === undefined || e.matched_zone_ids.includes(q.zoneId)) &&
    (q.minScore === undefined || (e.threat_score ?? -1) >= q.minScore) &&
    (q.source === undefined || e.source === q.source) &&
    Object.entries(q.payloadEquals ?? {}).every(([field, value]) => e.payload[field] === value) &&
    (q.matches === undefined || q.matches(e));
}

/** What an index entry's sort key (`<id>#<score>#<type>#<environment, 8>`) says of `q`'s score, type and environment. */
function keyTest(q: EventQuery): (sk: string) => boolean {
  const environment = q.environmentId?.slice(0, 8);
  return (sk) => {
    const [, score, type, env] = sk.split('#');
    return (
      (q.minScore === undefined || (score !== '' && Number(score) >= q.minScore)) &&
      (q.type === undefined || type === q.type) &&
      (environment === undefined || env === environment)
    );
  };
}

interface Cursor {
  pk: string;
  /** Entries read and not taken yet, newest first. */
  entries: (ItemKey & { sk: string })[];
  startKey?: Record<string, unknown>;
  done: boolean;
  limit: number;
}

/**
 * A page from GSI4 partitions: their entries (keys only) merged newest first by id, tested on
 * their keys (the exact score, the type, the environment), then the page's events read by key
 * (one BatchGetItem a 100) and tested whole. Each partition is read `wanted` entries at a time
 * at first (a Query reads 4 KB, some 20 entries, for half a read unit), four times more each
 * further time; at most EVENT_READ_LIMIT entries in all.
 */
async function keyedPage(q: EventQuery, partitions: string[], page: PageRequest): Promise<EventPage> {
  const wanted = page.offset + page.limit;
  const from = q.fromId ?? '0';
  const to = `${q.toId ?? 'g'}~`;
  const cursors: Cursor[] = partitions.map((pk) => ({ pk, entries: [], done: false, limit: Math.max(wanted, 20) }));
  const fill = async (c: Cursor) => {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'GSI4',
        KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': c.pk, ':from': from, ':to': to },
        ScanIndexForward: false,
        Limit: Math.min(1000, c.limit),
        ExclusiveStartKey: c.startKey,
      }),
    );
    for (const item of out.Items ?? [])
      c.entries.push({ PK: String(item.PK), SK: String(item.SK), sk: String(item.GSI4SK) });
    c.startKey = out.LastEvaluatedKey;
    c.done = !c.startKey;
    c.limit *= 4;
  };
  const onKey = keyTest(q);
  const whole = eventTest(q);
  const events: StoredEvent[] = [];
  let read = 0;
  let lastSk: string | undefined;
  let exhausted = false;
  while (events.length < wanted && !exhausted && read < EVENT_READ_LIMIT) {
    const batch: ItemKey[] = [];
    while (batch.length < wanted - events.length && read < EVENT_READ_LIMIT) {
      await Promise.all(cursors.filter((c) => c.entries.length === 0 && !c.done).map(fill));
      const live = cursors.filter((c) => c.entries.length > 0);
      if (live.length === 0) {
        exhausted = true;
        break;
      }
      const newest = live.reduce((a, b) => (a.entries[0]!.sk > b.entries[0]!.sk ? a : b));
      const entry = newest.entries.shift()!;
      lastSk = entry.sk;
      read++;
      if (onKey(entry.sk)) batch.push({ PK: entry.PK, SK: entry.SK });
    }
    // The index that found them is eventually consistent: so may be the read of their items (half the units).
    const items = await readItems(batch, undefined, { consistent: false });
    for (const key of batch) {
      const item = items.get(key);
      // Gone since (its TTL ran), or changed since its index entry was read: tested again whole.
      const event = item ? eventFromItem(item) : null;
      if (event && whole(event)) events.push(event);
    }
  }
  const unread = cursors.some((c) => c.entries.length > 0 || !c.done);
  const readLimitReached = unread && events.length < wanted;
  return {
    events: events.slice(page.offset, wanted),
    readLimitReached,
    ...(readLimitReached ? { readBackTo: idOfSortKey(lastSk) } : {}),
  };
}

/**
 * A page from one Query of the narrowest of GSI3, GSI1, GSI2 or the tenant's partition, the
 * other filters its FilterExpression (on the compact items' attributes, and on those of before).
 * A page reads `offset + limit` items when no filter applies; a filtered one reads twice that
 * first (at least FIRST_FILTERED_READ) and four times more each further call while the filters
 * drop events, up to EVENT_READ_LIMIT events read.
 */
async function queriedPage(tenantId: TenantId, q: EventQuery, page: PageRequest): Promise<EventPage> {
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
  // The environment and type are in their index keys (the compact item holds them nowhere else).
  const environmentFilter = () => {
    filters.push('GSI1PK = :envPk');
    values[':envPk'] = keys.eventByEnvironment(tenantId, q.environmentId!, '').GSI1PK;
  };
  const typeFilter = () => {
    filters.push('GSI2PK = :typePk');
    values[':typePk'] = keys.eventByType(tenantId, q.type!, '').GSI2PK;
  };
  if (q.processed === true) {
    names['#pk'] = 'GSI3PK';
    values[':pk'] = keys.eventProcessed(tenantId, '').GSI3PK;
    input = { TableName: TABLE, IndexName: 'GSI3', KeyConditionExpression: `#pk = :pk${range('GSI3SK')}` };
    if (q.environmentId) environmentFilter();
    if (q.type) typeFilter();
  } else if (q.environmentId) {
    names['#pk'] = 'GSI1PK';
    values[':pk'] = keys.eventByEnvironment(tenantId, q.environmentId, '').GSI1PK;
    input = { TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: `#pk = :pk${range('GSI1SK', 'EVENT#')}` };
    if (q.type) typeFilter();
  } else if (q.type) {
    names['#pk'] = 'GSI2PK';
    values[':pk'] = keys.eventByType(tenantId, q.type, '').GSI2PK;
    input = { TableName: TABLE, IndexName: 'GSI2', KeyConditionExpression: `#pk = :pk${range('GSI2SK')}` };
  } else {
    names['#pk'] = 'PK';
    values[':pk'] = keys.event(tenantId, '').PK;
    input = { TableName: TABLE, KeyConditionExpression: `#pk = :pk${range('SK')}`, ConsistentRead: true };
  }
  if (q.processed === false) {
    // Not stored while false (items of before hold `false`).
    names['#processed'] = 'processed';
    filters.push('(attribute_not_exists(#processed) OR #processed <> :true)');
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
    // The dominant source is not stored (items of before name it).
    names['#source'] = 'source';
    filters.push(
      q.source === DOMINANT_SOURCE ? '(attribute_not_exists(#source) OR #source = :source)' : '#source = :source',
    );
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
  const readLimitReached = Boolean(startKey) && items.length < wanted;
  // The last key evaluated: the oldest event looked at (the sort key of the index read).
  const sortName = names['#sk'];
  return {
    events: items.slice(page.offset, wanted),
    readLimitReached,
    ...(readLimitReached && sortName ? { readBackTo: idOfSortKey(startKey?.[sortName]) } : {}),
  };
}
