/**
 * Fibre-sensor telemetry: ONE index item per batch of frames (the frames themselves are one S3
 * object, shared/domain/fibre/telemetry.ts), in the sensor's telemetry partition
 * `T#<tenant>#TEL#<sensor>`, sorted by `<first frame time>#<batch id>` (data-model pattern 53).
 * A window is one Query of the sort key range; nothing here is ever one item per sample.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { queryPage } from './query.js';
import { keys, telemetryPk } from './keys.js';

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
  detections: number;
  event_ids: string[];
  expires_at: number;
}

const PROJECTED = ['tenant_id', 'sensor_id', 'batch_id', 'kind', 'start', 'end', 's3_key', 'frames', 'channel_from', 'channel_to', 'max_value', 'hash', 'received_at', 'state', 'detections', 'event_ids', 'expires_at'] as const;

function batchFrom(item: Record<string, unknown>): TelemetryBatch {
  return Object.fromEntries(PROJECTED.map((k) => [k, item[k]])) as unknown as TelemetryBatch;
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

export async function getTelemetryBatch(tenantId: string, sensorId: string, start: string, batchId: string): Promise<TelemetryBatch | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.telemetryBatch(tenantId, sensorId, start, batchId), ConsistentRead: true }));
  return out.Item ? batchFrom(out.Item) : null;
}

/** Marks a pending batch stored, with the events its detections became. */
export async function completeTelemetryBatch(batch: TelemetryBatch, eventIds: string[]): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.telemetryBatch(batch.tenant_id, batch.sensor_id, batch.start, batch.batch_id),
      UpdateExpression: 'SET #state = :stored, detections = :n, event_ids = :ids',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':stored': 'stored', ':n': eventIds.length, ':ids': eventIds },
    }),
  );
}

/**
 * The sensor's batches whose first frame lies in [`from`, `to`] (sort keys compare as text:
 * RFC 3339 UTC with milliseconds orders as time), oldest first, at most `limit`. One Query (pages
 * of it only past 1 MB of index items).
 */
export async function queryTelemetryBatches(tenantId: string, sensorId: string, from: string, to: string, limit: number): Promise<TelemetryBatch[]> {
  const items = await queryPage({ pk: telemetryPk(tenantId, sensorId), skBetween: [from, `${to}#\uffff`], ascending: true }, { limit, offset: 0 });
  return items.map(batchFrom);
}
