/**
 * Vessels in the single table (docs/data-model.md): each position report in the vessel's
 * partition by time (and in a grid cell's index by time), the vessel's own item (identity, last
 * seen, last position), its behaviour episodes, and the AIS decoding failures counted per day.
 * Every write is idempotent: a report put again is the same item; the vessel's last position
 * moves only forward; an episode is named by its vessel, kind and start.
 */
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../client.js';
import { pick } from '../items.js';
import { tenantPk } from '../keys.js';
import { vesselKeys as keys } from './keys.js';
import { queryPage } from '../query.js';
import { backoff } from '../read-batch.js';
import { ConditionFailed, transactWrite } from '../transact.js';
import { outboxPut } from '../outbox.js';
import { EPISODE_FOUND, VESSELS_SOURCE } from '../../vocabulary/bus.js';
import type { ShipIdentity } from '../../vocabulary/ship-types.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** The grid of the area index, in degrees: a cell is about 22 km north to south. */
export const VESSEL_CELL_DEGREES = 0.2;

export const cellOf = (lat: number, lon: number) =>
  `${Math.floor(lat / VESSEL_CELL_DEGREES)}:${Math.floor(lon / VESSEL_CELL_DEGREES)}`;

export interface StoredPosition {
  mmsi: string;
  event_id: string;
  occurred_at: string;
  lat: number;
  lon: number;
  sog_knots: number | null;
  cog_degrees: number | null;
  heading_degrees: number | null;
  nav_status: number | null;
  message_type: number | null;
  environment_id: string | null;
  zone_ids: string[];
}

export interface VesselIdentity extends ShipIdentity {
  /** When the identity was last reported. */
  reported_at: string | null;
}

export interface StoredVessel {
  tenant_id: string;
  mmsi: string;
  /** Its first report of any kind. */
  first_seen: string;
  /** Its last position report; null while it has sent static data only. */
  last_seen: string | null;
  last_position: StoredPosition | null;
  identity: VesselIdentity | null;
}

/** A vessel with a position. */
export type SeenVessel = StoredVessel & { last_seen: string };

export type EpisodeKind = 'gap' | 'loitering';

export interface StoredEpisode {
  mmsi: string;
  kind: EpisodeKind;
  start: string;
  end: string;
  duration_minutes: number;
  /** Where it began and ended (a gap: the last position before and the first after). */
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  /** Loitering: the centre, the farthest position from it (m) and the mean speed. */
  center?: { lat: number; lon: number };
  radius_m?: number;
  mean_sog_knots?: number | null;
  /** The event the episode was announced with (`ais.gap`, `vessel.loitering`). */
  event_id: string | null;
}

const POSITION_FIELDS = [
  'mmsi',
  'event_id',
  'occurred_at',
  'lat',
  'lon',
  'sog_knots',
  'cog_degrees',
  'heading_degrees',
  'nav_status',
  'message_type',
  'environment_id',
  'zone_ids',
] as const;

const positionOf = (item: Record<string, unknown>): StoredPosition => ({
  ...pick<StoredPosition>(item, POSITION_FIELDS),
  zone_ids: (item.zone_ids as string[] | undefined) ?? [],
});

/** Puts position reports, 25 per BatchWriteItem, retrying what DynamoDB leaves unprocessed. */
export async function putPositions(
  tenantId: TenantId,
  positions: readonly StoredPosition[],
  expiresAt: number,
): Promise<void> {
  const requests = positions.map((p) => ({
    PutRequest: {
      Item: {
        ...keys.vesselPosition(tenantId, p.mmsi, p.occurred_at, p.event_id),
        ...keys.vesselArea(tenantId, cellOf(p.lat, p.lon), p.occurred_at, p.mmsi, p.event_id),
        entity: 'VESSELPOS',
        tenant_id: tenantId,
        ...p,
        expires_at: expiresAt,
      },
    },
  }));
  for (let i = 0; i < requests.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = requests.slice(i, i + 25);
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 0) await backoff(attempt);
      if (attempt > 8) throw new Error('DynamoDB left position writes unprocessed after 8 tries');
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without these two tsc cannot type `out` (it refers to itself through `pending`)
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending as never } }));
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as above
      pending = out.UnprocessedItems?.[TABLE] as Record<string, unknown>[] | undefined;
    }
  }
}

const vesselPk = (tenantId: TenantId, mmsi: string) => `${tenantPk(tenantId)}#VESSEL#${mmsi}`;
const upTo = (limit: number) => ({ limit, offset: 0 });

/**
 * A vessel's positions between two times (both included), oldest first, at most `limit`. Reads of
 * the vessel's partition are consistent: the tracker reads back what it has just written.
 */
export async function trackBetween(
  tenantId: TenantId,
  mmsi: string,
  from: string,
  to: string,
  limit: number,
): Promise<StoredPosition[]> {
  return (
    await queryPage(
      { pk: vesselPk(tenantId, mmsi), skBetween: [`P#${from}`, `P#${to}#~`], consistent: true },
      upTo(limit),
    )
  ).map(positionOf);
}

/** The last position of a vessel before `time` (excluded), if any. */
export async function positionBefore(tenantId: TenantId, mmsi: string, time: string): Promise<StoredPosition | null> {
  const [item] = await queryPage(
    { pk: vesselPk(tenantId, mmsi), skBetween: ['P#', `P#${time}`], ascending: false, consistent: true },
    upTo(1),
  );
  return item ? positionOf(item) : null;
}

/** Positions in one grid cell between two times, oldest first, at most `limit`. */
export async function positionsInCell(
  tenantId: TenantId,
  cell: string,
  from: string,
  to: string,
  limit: number,
): Promise<StoredPosition[]> {
  return (
    await queryPage(
      { index: 'GSI1', pk: `${tenantPk(tenantId)}#AREA#${cell}`, skBetween: [from, `${to}~`] },
      upTo(limit),
    )
  ).map(positionOf);
}

const VESSEL_FIELDS = ['tenant_id', 'mmsi', 'first_seen', 'last_seen', 'last_position', 'identity'] as const;
const vesselOf = (item: Record<string, unknown>): StoredVessel => ({
  ...pick<StoredVessel>(item, VESSEL_FIELDS),
  last_seen: (item.last_seen as string | undefined) ?? null,
  last_position: (item.last_position as StoredPosition | undefined) ?? null,
  identity: (item.identity as VesselIdentity | undefined) ?? null,
});

export async function getVessel(tenantId: TenantId, mmsi: string): Promise<StoredVessel | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.vessel(tenantId, mmsi) }));
  return out.Item ? vesselOf(out.Item) : null;
}

/** Creates a vessel's item with its constant parts, or moves its first report back to `at`. */
async function markSeen(key: Record<string, string>, tenantId: TenantId, mmsi: string, at: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET entity = :e, tenant_id = :t, mmsi = :m, first_seen = :at',
        ConditionExpression: 'attribute_not_exists(first_seen) OR first_seen > :at',
        ExpressionAttributeValues: { ':e': 'VESSEL', ':t': tenantId, ':m': mmsi, ':at': at },
      }),
    );
  } catch (err) {
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/** Records that a vessel was seen at `position`: its last position moves only forward in time. */
export async function touchVessel(tenantId: TenantId, mmsi: string, position: StoredPosition): Promise<void> {
  const key = keys.vessel(tenantId, mmsi);
  await markSeen(key, tenantId, mmsi, position.occurred_at);
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET last_seen = :at, last_position = :p, GSI2PK = :g2pk, GSI2SK = :g2sk',
        ConditionExpression: 'attribute_not_exists(last_seen) OR last_seen < :at',
        ExpressionAttributeValues: {
          ':at': position.occurred_at,
          ':p': position,
          ...prefixed(keys.vesselRecency(tenantId, position.occurred_at, mmsi)),
        },
      }),
    );
  } catch (err) {
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/**
 * A vessel that has sent static data only is in the recency index by its latest such report, so
 * the lists show it (types 5 and 24 come every 6 minutes, often before any position); its first
 * position takes the index over for good (touchVessel).
 */
async function heardWithoutPosition(key: Record<string, string>, tenantId: TenantId, mmsi: string, at: string) {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET GSI2PK = :g2pk, GSI2SK = :g2sk',
        ConditionExpression: 'attribute_not_exists(last_seen) AND (attribute_not_exists(GSI2SK) OR GSI2SK < :g2sk)',
        ExpressionAttributeValues: prefixed(keys.vesselRecency(tenantId, at, mmsi)),
      }),
    );
  } catch (err) {
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/**
 * Revises what a vessel says it is, from a report made at `at`: `revise` is handed the stored
 * identity and answers the new one (null: nothing to change). The write holds only if no other
 * writer revised it meanwhile (a version number); otherwise it is read and revised again. A
 * vessel first known from this report is created (first seen then).
 */
export async function reviseIdentity(
  tenantId: TenantId,
  mmsi: string,
  at: string,
  revise: (current: VesselIdentity | null) => VesselIdentity | null,
): Promise<void> {
  const key = keys.vessel(tenantId, mmsi);
  await markSeen(key, tenantId, mmsi, at);
  await heardWithoutPosition(key, tenantId, mmsi, at);
  // `identity` is a reserved word of DynamoDB's expressions.
  const names = { '#id': 'identity' };
  for (let attempt = 0; ; attempt++) {
    const out = await db.send(
      new GetCommand({
        TableName: TABLE,
        Key: key,
        ConsistentRead: true,
        ProjectionExpression: '#id, identity_version',
        ExpressionAttributeNames: names,
      }),
    );
    const version = Number(out.Item?.identity_version ?? 0);
    const next = revise((out.Item?.identity as VesselIdentity | undefined) ?? null);
    if (!next) return;
    try {
      await db.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: key,
          UpdateExpression: 'SET #id = :i, identity_version = :next',
          ConditionExpression: version ? 'identity_version = :v' : 'attribute_not_exists(identity_version)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':i': next,
            ':next': version + 1,
            ...(version ? { ':v': version } : {}),
          },
        }),
      );
      return;
    } catch (err) {
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      if (attempt >= 8)
        throw new Error(`the identity of vessel ${mmsi} kept changing while it was revised`, { cause: err });
      await backoff(attempt + 1);
    }
  }
}

const prefixed = (k: { GSI2PK: string; GSI2SK: string }) => ({ ':g2pk': k.GSI2PK, ':g2sk': k.GSI2SK });

/**
 * A tenant's vessels last heard in a time range, most recently first: by their last position, or
 * by their last static report while they have sent no position (`last_seen` null).
 */
export async function vesselsSeenBetween(
  tenantId: TenantId,
  from: string,
  to: string,
  limit: number,
): Promise<StoredVessel[]> {
  return (
    await queryPage(
      { index: 'GSI2', pk: `${tenantPk(tenantId)}#VESSELS`, skBetween: [from, `${to}~`], ascending: false },
      upTo(limit),
    )
  ).map(vesselOf);
}

const EPISODE_FIELDS = [
  'mmsi',
  'kind',
  'start',
  'end',
  'duration_minutes',
  'from',
  'to',
  'center',
  'radius_m',
  'mean_sog_knots',
  'event_id',
] as const;
const episodeOf = (item: Record<string, unknown>): StoredEpisode =>
  Object.fromEntries(
    EPISODE_FIELDS.flatMap((f) => (item[f] === undefined ? [] : [[f, item[f]]])),
  ) as unknown as StoredEpisode;

/** A vessel's episodes of a kind that started at or after `from`, oldest first. */
export async function episodesOfVessel(
  tenantId: TenantId,
  mmsi: string,
  kind: EpisodeKind,
  from: string,
): Promise<StoredEpisode[]> {
  return (
    await queryPage(
      { pk: vesselPk(tenantId, mmsi), skBetween: [`E#${kind}#${from}`, `E#${kind}#~`], consistent: true },
      upTo(1000),
    )
  ).map(episodeOf);
}

/** Puts an episode, and with a new one the message that announces it (`event`: shared/domain/vessels/announce.ts). */
export async function putEpisode(
  tenantId: TenantId,
  episode: StoredEpisode,
  expiresAt: number,
  event: Record<string, unknown> | null = null,
): Promise<void> {
  await transactWrite([
    ...(event ? [outboxPut({ tenantId, source: VESSELS_SOURCE, detailType: EPISODE_FOUND, detail: { event } })] : []),
    {
      Put: {
        TableName: TABLE,
        Item: {
          ...keys.vesselEpisode(tenantId, episode.mmsi, episode.kind, episode.start),
          ...keys.vesselEpisodeByEnd(tenantId, episode.kind, episode.end, episode.mmsi),
          entity: 'VESSELEPISODE',
          tenant_id: tenantId,
          ...episode,
          expires_at: expiresAt,
        },
      },
    },
  ]);
}

export async function deleteEpisode(tenantId: TenantId, episode: StoredEpisode): Promise<void> {
  await transactWrite([
    { Delete: { TableName: TABLE, Key: keys.vesselEpisode(tenantId, episode.mmsi, episode.kind, episode.start) } },
  ]);
}

/** A tenant's episodes of a kind that ended in a time range, latest first. */
export async function episodesEndedBetween(
  tenantId: TenantId,
  kind: EpisodeKind,
  from: string,
  to: string,
  limit: number,
): Promise<StoredEpisode[]> {
  return (
    await queryPage(
      { index: 'GSI3', pk: `${tenantPk(tenantId)}#EPISODES#${kind}`, skBetween: [from, `${to}~`], ascending: false },
      upTo(limit),
    )
  ).map(episodeOf);
}

/** The count of one failure reason in a day's item: `fail_<reason>` (a new day's item has no map to add into). */
const FAILURE_PREFIX = 'fail_';

/**
 * Counts an event's AIS decoding failure in its tenant's day, exactly once: the marker and the
 * count are written together, and a marker already there means it was counted.
 */
export async function countAisFailure(
  tenantId: TenantId,
  eventId: string,
  day: string,
  reason: string,
  expiresAt: number,
): Promise<boolean> {
  try {
    await transactWrite([
      {
        Put: {
          TableName: TABLE,
          Item: { ...keys.aisCounted(tenantId, eventId), expires_at: expiresAt },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: keys.aisStats(tenantId, day),
          UpdateExpression: 'SET entity = :e, #day = :day ADD #reason :one, failed :one',
          ExpressionAttributeNames: { '#day': 'day', '#reason': `${FAILURE_PREFIX}${reason}` },
          ExpressionAttributeValues: { ':e': 'AISSTATS', ':day': day, ':one': 1 },
        },
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) return false;
    throw err;
  }
}

/** A tenant's AIS decoding failures per day between two days (YYYY-MM-DD, both included). */
export async function aisFailuresBetween(
  tenantId: TenantId,
  fromDay: string,
  toDay: string,
): Promise<{ day: string; failed: number; failures: Record<string, number> }[]> {
  const items = await queryPage(
    { pk: `${tenantPk(tenantId)}#STATS`, skBetween: [`AIS#${fromDay}`, `AIS#${toDay}`] },
    upTo(100),
  );
  return items.map((i) => ({
    day: String(i.day),
    failed: Number(i.failed ?? 0),
    failures: Object.fromEntries(
      Object.entries(i)
        .filter(([k]) => k.startsWith(FAILURE_PREFIX))
        .map(([k, v]) => [k.slice(FAILURE_PREFIX.length), Number(v)]),
    ),
  }));
}
