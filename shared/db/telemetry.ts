/**
 * Fibre-sensor telemetry: ONE index item per batch of frames (the frames themselves are one S3
 * object, shared/domain/fibre/telemetry.ts), in the sensor's telemetry partition
 * `T#<tenant>#TEL#<sensor>`, sorted by `<first frame time>#<batch id>` (data-model pattern 53).
 * A window is one Query of the sort key range; nothing here is ever one item per sample. Beside
 * them, one item `OPEN` holds the disturbances the sensor's detections keep open across batches.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { queryPage } from './query.js';
import { ConditionFailed } from './transact.js';
import * as keys from './item-keys.js';
import { telemetryPk } from './keys.js';

/**
 * A disturbance a sensor's earlier batches raised an event for, kept so that the next batches
 * continue it instead of raising an event a batch (docs/fibre-telemetry.md, "Across batches").
 * Times are epoch milliseconds.
 */
export interface OpenDisturbance {
  /** The event the disturbance raised. */
  event_id: string;
  first_at: number;
  last_at: number;
  channel_from: number;
  channel_to: number;
}

/** A batch's detections by index: those that raise an event, and the event each other one continues. */
export interface DetectionPlan {
  fresh: number[];
  continued: Record<number, string>;
}

export interface TelemetryBatch {
  tenant_id: string;
  sensor_id: string;
  batch_id: string;
  kind: 'das' | 'dts';
  /** First and last frame times (RFC 3339). */
  start: string;
  end: string;
  s3_key: string;
  frames: number;
  channel_from: number;
  channel_to: number;
  max_value: number;
  /** SHA-256 of the batch as sent (normalised): the same batch id with other content is a conflict. */
  hash: string;
  received_at: string;
  /** `pending` while its detections are being stored (a retry finishes them), then `stored`. */
  state: 'pending' | 'stored';
  /** Detections in its frames: each raised an event (`event_ids`) or continued one an earlier batch raised (`continued_event_ids`). */
  detections: number;
  event_ids: string[];
  continued_event_ids: string[];
  /** While pending: which detections (by index) raise events and which continue which event, decided before any is written, so a retry decides the same. */
  plan?: DetectionPlan;
  expires_at: number;
}

const PROJECTED = [
  'tenant_id',
  'sensor_id',
  'batch_id',
  'kind',
  'start',
  'end',
  's3_key',
  'frames',
  'channel_from',
  'channel_to',
  'max_value',
  'hash',
  'received_at',
  'state',
  'detections',
  'event_ids',
  'continued_event_ids',
  'plan',
  'expires_at',
] as const;

function batchFrom(item: Record<string, unknown>): TelemetryBatch {
  // Batches stored before detections continued across batches have no continued_event_ids.
  return {
    ...Object.fromEntries(PROJECTED.map((k) => [k, item[k]])),
    continued_event_ids: item.continued_event_ids ?? [],
  } as unknown as TelemetryBatch;
}

/** Stores a new batch's index item; false when the batch (this start and id) is stored already. */
export async function putTelemetryBatch(batch: TelemetryBatch): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.telemetryBatch(batch.tenant_id, batch.sensor_id, batch.start, batch.batch_id), ...batch },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

export async function getTelemetryBatch(
  tenantId: string,
  sensorId: string,
  start: string,
  batchId: string,
): Promise<TelemetryBatch | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: keys.telemetryBatch(tenantId, sensorId, start, batchId),
      ConsistentRead: true,
    }),
  );
  return out.Item ? batchFrom(out.Item) : null;
}

/** Marks a pending batch stored, with the events its detections raised and those they continued. */
export async function completeTelemetryBatch(
  batch: TelemetryBatch,
  detections: number,
  eventIds: string[],
  continuedIds: string[],
): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.telemetryBatch(batch.tenant_id, batch.sensor_id, batch.start, batch.batch_id),
      UpdateExpression:
        'SET #state = :stored, detections = :n, event_ids = :ids, continued_event_ids = :continued REMOVE #plan',
      ExpressionAttributeNames: { '#state': 'state', '#plan': 'plan' },
      ExpressionAttributeValues: {
        ':stored': 'stored',
        ':n': detections,
        ':ids': eventIds,
        ':continued': continuedIds,
      },
    }),
  );
}

/** The sensor's open disturbances and the version they were read at (0: none yet). */
export async function getOpenDisturbances(
  tenantId: string,
  sensorId: string,
): Promise<{ open: OpenDisturbance[]; version: number }> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.telemetryOpen(tenantId, sensorId), ConsistentRead: true }),
  );
  return {
    open: (out.Item?.open as OpenDisturbance[] | undefined) ?? [],
    version: (out.Item?.version as number | undefined) ?? 0,
  };
}

/**
 * Replaces the open disturbances if no one did since `version` was read; ConditionFailed (the
 * transactions' signal, shared/db/transact.ts) when someone did. Kept a day past the last write.
 */
export async function saveOpenDisturbances(
  tenantId: string,
  sensorId: string,
  open: OpenDisturbance[],
  version: number,
  expiresAt: number,
): Promise<void> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...keys.telemetryOpen(tenantId, sensorId),
          tenant_id: tenantId,
          sensor_id: sensorId,
          open,
          version: version + 1,
          expires_at: expiresAt,
        },
        ConditionExpression: version === 0 ? 'attribute_not_exists(PK)' : 'version = :v',
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
      }),
    );
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') throw new ConditionFailed(0);
    throw err;
  }
}

/**
 * The sensor's batches whose first frame lies in [`from`, `to`] (sort keys compare as text:
 * RFC 3339 UTC with milliseconds orders as time), oldest first, at most `limit`. One Query (pages
 * of it only past 1 MB of index items).
 */
export async function queryTelemetryBatches(
  tenantId: string,
  sensorId: string,
  from: string,
  to: string,
  limit: number,
): Promise<TelemetryBatch[]> {
  const items = await queryPage(
    { pk: telemetryPk(tenantId, sensorId), skBetween: [from, `${to}#\uffff`], ascending: true },
    { limit, offset: 0 },
  );
  return items.map(batchFrom);
}
