/**
 * Fibre-sensor telemetry (docs/fibre-telemetry.md). A DAS or DTS unit posts a batch of raw frames;
 * the batch is ONE gzipped JSON-lines object in S3 and ONE index item in the table (shared/db/telemetry.ts),
 * never an item per sample. Values above the sensor's threshold become `fibre.disturbance` events
 * at the channel's point on its line, through the same ingest as every event (zones, scoring,
 * threat definitions, incidents, the stream, webhooks); a disturbance that goes on into the next
 * batches continues its event rather than raising one a batch. A retried batch (same first frame
 * time and batch id) is stored and detected once.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { getObjectBytes, putObject } from '../../adapters/s3.js';
import { SITE_KINDS, type StoredSensor } from '../../db/site-entities.js';
import {
  completeTelemetryBatch,
  getOpenDisturbances,
  getTelemetryBatch,
  putTelemetryBatch,
  queryTelemetryBatches,
  saveOpenDisturbances,
  type DetectionPlan,
  type OpenDisturbance,
  type TelemetryBatch,
} from '../../db/telemetry.js';
import { retryOnConcurrentChange } from '../../db/transact.js';
import { ConflictError, invalid, PayloadTooLargeError } from '../../errors.js';
import { derivedTimeId, now } from '../../ids.js';
import type { InputOf } from '../../schemas/json-schema.js';
import {
  MAX_BATCH_VALUES,
  MAX_READ_VALUES,
  type telemetryBatchCreate,
  type telemetryReadQuery,
} from '../../schemas/telemetry.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { ingestEvents, type EventInput, type IngestMeter } from '../events/index.js';
import { findLine } from '../infrastructure/index.js';
import { findInTenant, SENSOR_NOT_FOUND, splitLineId, touchSensor } from '../sites/index.js';
import {
  channelDistance,
  detect,
  mergeDisturbances,
  pointAlong,
  splitDetections,
  type Detection,
  type Frame,
} from './mapping.js';

export type TelemetryBatchInput = InputOf<typeof telemetryBatchCreate>;
export type TelemetryReadQuery = InputOf<typeof telemetryReadQuery>;

/** The frames of one batch lie within this span (its object sits under one hour's prefix, more or less, and a window's Query starts this much before `from`). */
export const MAX_BATCH_SPAN_MS = 3_600_000;
const MAX_AHEAD_MS = 60_000;
const MAX_AGE_MS = 7 * 86_400_000;
/** A window is at most this long. */
const MAX_WINDOW_MS = 86_400_000;
/** Most batches one read looks at (a unit posting every few seconds for a whole day would be more: narrow the window). */
const MAX_READ_BATCHES = 500;
const LAST_SEEN_RESOLUTION_MS = 60_000;
/** Raw frames are kept this long: the bucket's lifecycle rule on `telemetry/` (lib/storage.ts) and the index items' TTL agree. */
export const TELEMETRY_RETENTION_DAYS = 90;

export interface TelemetryReceipt {
  sensor_id: string;
  batch_id: string;
  kind: 'das' | 'dts';
  start: string;
  end: string;
  frames: number;
  channel_from: number;
  channel_to: number;
  max_value: number;
  duplicate: boolean;
  detections: number;
  event_ids: string[];
  continued_event_ids: string[];
}

/** `telemetry/<tenant>/<sensor>/<yyyy-mm-dd>/<hh>/<first frame ms>-<batch id>-<hash>.jsonl.gz`. */
export function telemetryObjectKey(
  tenantId: string,
  sensorId: string,
  startMs: number,
  batchId: string,
  hash: string,
): string {
  const iso = new Date(startMs).toISOString();
  return `telemetry/${tenantId}/${sensorId}/${iso.slice(0, 10)}/${iso.slice(11, 13)}/${startMs}-${batchId}-${hash.slice(0, 12)}.jsonl.gz`;
}

/** The object's bytes: gzip of a header line, then one line `[time ms, channel_start, [values]]` per frame. */
export function encodeFrames(header: Record<string, unknown>, frames: readonly Frame[]): Buffer {
  const lines = [JSON.stringify({ v: 1, ...header }), ...frames.map((f) => JSON.stringify([f.t, f.c0, f.v]))];
  return gzipSync(`${lines.join('\n')}\n`);
}

export function decodeFrames(bytes: Uint8Array): Frame[] {
  const lines = gunzipSync(bytes).toString('utf8').split('\n').filter(Boolean);
  return lines.slice(1).map((line) => {
    const [t, c0, v] = JSON.parse(line) as [number, number, number[]];
    return { t, c0, v };
  });
}

const receipt = (b: TelemetryBatch, duplicate: boolean): TelemetryReceipt => ({
  sensor_id: b.sensor_id,
  batch_id: b.batch_id,
  kind: b.kind,
  start: b.start,
  end: b.end,
  frames: b.frames,
  channel_from: b.channel_from,
  channel_to: b.channel_to,
  max_value: b.max_value,
  duplicate,
  detections: b.detections,
  event_ids: b.event_ids,
  continued_event_ids: b.continued_event_ids,
});

async function fibreSensor(tenantId: TenantId, sensorId: string): Promise<StoredSensor> {
  const sensor = await findInTenant<StoredSensor>(SITE_KINDS.sensor, tenantId, sensorId, SENSOR_NOT_FOUND);
  if (sensor.type !== 'fibre_optic') throw invalid(['path', 'sensor_id'], 'not a fibre_optic sensor', 'value_error');
  return sensor;
}

/** The frames as sent, in time order (then channel), checked against the limits. */
function framesOf(input: TelemetryBatchInput, atMs: number): Frame[] {
  const values = input.frames.reduce((n, f) => n + f.values.length, 0);
  if (values > MAX_BATCH_VALUES)
    throw new PayloadTooLargeError(`body.frames holds ${values} values; at most ${MAX_BATCH_VALUES} a batch`);
  const frames = input.frames.map((f, i) => {
    const t = Date.parse(f.time);
    if (t > atMs + MAX_AHEAD_MS)
      throw invalid(['body', 'frames', i, 'time'], 'more than a minute ahead of now', 'value_error');
    if (t < atMs - MAX_AGE_MS) throw invalid(['body', 'frames', i, 'time'], 'older than 7 days', 'value_error');
    return { t, c0: f.channel_start, v: f.values };
  });
  frames.sort((a, b) => a.t - b.t || a.c0 - b.c0);
  if (frames.at(-1)!.t - frames[0]!.t > MAX_BATCH_SPAN_MS)
    throw invalid(['body', 'frames'], 'the frames of a batch must lie within one hour', 'value_error');
  return frames;
}

/**
 * Stores a batch and turns its detections into events. DynamoDB calls, a batch without
 * detections: the sensor (GetItem), the index item (a conditional PutItem), the sensor's
 * last-seen time at most once a minute; one S3 PutObject. With detections, also: the sensor's
 * open disturbances (GetItem, and a conditional PutItem after), and the index item marked stored
 * (UpdateItem); with a detection that raises an event, the line's file (GetItem) and its lines (S3
 * GetObject) and the ingest of the events (docs/fibre-telemetry.md).
 */
export async function ingestTelemetry(
  actor: Actor,
  meter: IngestMeter,
  tenantId: TenantId,
  sensorId: string,
  input: TelemetryBatchInput,
): Promise<TelemetryReceipt> {
  const at = now();
  const atMs = Date.parse(at);
  const sensor = await fibreSensor(tenantId, sensorId);
  const frames = framesOf(input, atMs);
  const hash = createHash('sha256')
    .update(JSON.stringify([input.kind, input.classification ?? null, frames.map((f) => [f.t, f.c0, f.v])]))
    .digest('hex');
  const batchId = input.batch_id ?? hash.slice(0, 32);
  const startMs = frames[0]!.t;
  const s3Key = telemetryObjectKey(tenantId, sensor.sensor_id, startMs, batchId, hash);
  let maxValue = -Infinity;
  let channelFrom = Infinity;
  let channelTo = -Infinity;
  for (const f of frames) {
    channelFrom = Math.min(channelFrom, f.c0);
    channelTo = Math.max(channelTo, f.c0 + f.v.length - 1);
    for (const v of f.v) if (v > maxValue) maxValue = v;
  }
  const found = sensor.fibre ? detect(frames, sensor.fibre.threshold) : { detections: [], dropped: 0 };
  // Which detections go on with a disturbance an earlier batch raised, decided before anything is
  // written and kept on the pending index item: a retry finishes with the same decision.
  const opened =
    found.detections.length > 0 ? await getOpenDisturbances(tenantId, sensor.sensor_id) : { open: [], version: 0 };
  const plan = splitDetections(opened.open, found.detections);
  const batch: TelemetryBatch = {
    tenant_id: tenantId,
    sensor_id: sensor.sensor_id,
    batch_id: batchId,
    kind: input.kind,
    start: new Date(startMs).toISOString(),
    end: new Date(frames.at(-1)!.t).toISOString(),
    s3_key: s3Key,
    frames: frames.length,
    channel_from: channelFrom,
    channel_to: channelTo,
    max_value: maxValue,
    hash,
    received_at: at,
    state: found.detections.length > 0 ? 'pending' : 'stored',
    detections: 0,
    event_ids: [],
    continued_event_ids: [],
    ...(found.detections.length > 0 ? { plan } : {}),
    expires_at: Math.floor(atMs / 1000) + TELEMETRY_RETENTION_DAYS * 86_400,
  };
  const object = encodeFrames(
    { kind: input.kind, sensor_id: sensor.sensor_id, batch_id: batchId, classification: input.classification ?? null },
    frames,
  );

  // Without detections the object goes first: an index item always names a stored object.
  if (batch.state === 'stored') await putObject(s3Key, object, 'application/gzip');
  let current = batch;
  if (!(await putTelemetryBatch(batch))) {
    const stored = await getTelemetryBatch(tenantId, sensor.sensor_id, batch.start, batchId);
    if (!stored) throw new Error(`telemetry batch ${batchId} vanished`);
    if (stored.hash !== hash) throw new ConflictError(`batch_id ${batchId} was already used for other frames`);
    if (stored.state === 'stored') return receipt(stored, true);
    // An attempt that stopped half way: finish it, with its receipt time (the events' ids).
    current = stored;
  }
  await noteSeen(sensor, frames.at(-1)!.t, atMs);
  if (current.state === 'stored') return receipt(current, false);

  await putObject(s3Key, object, 'application/gzip');
  // A batch left pending by code older than the plan raised an event for every detection.
  const decided: DetectionPlan = current.plan ?? { fresh: found.detections.map((_, i) => i), continued: {} };
  const fresh = decided.fresh.map((index) => ({ detection: found.detections[index]!, index }));
  const events = fresh.length > 0 ? await detectionEvents(sensor, input, fresh, found.dropped, current) : [];
  if (events.length > 0)
    await ingestEvents(actor, { decideTenant: () => Promise.resolve(tenantId), meter }, events, (i) => [
      'body',
      'frames',
      i,
    ]);
  const eventIds = events.map((e) => e.event_id!);
  const continued = Object.entries(decided.continued).map(([index, eventId]) => ({
    detection: found.detections[Number(index)]!,
    event_id: eventId,
  }));
  const touched = [...fresh.map((f, i) => ({ detection: f.detection, event_id: eventIds[i]! })), ...continued].map(
    ({ detection: d, event_id }) => ({
      event_id,
      first_at: d.first_at,
      last_at: d.last_at,
      channel_from: d.channel_from,
      channel_to: d.channel_to,
    }),
  );
  await keepOpen(sensor, touched, opened, atMs);
  const continuedIds = [...new Set(continued.map((c) => c.event_id))];
  await completeTelemetryBatch(current, found.detections.length, eventIds, continuedIds);
  return receipt(
    {
      ...current,
      state: 'stored',
      detections: found.detections.length,
      event_ids: eventIds,
      continued_event_ids: continuedIds,
    },
    false,
  );
}

/**
 * The sensor's open disturbances with this batch's merged in: written only if no other batch of
 * the sensor wrote them since they were read (else read, merged and tried again: a merge of the
 * same batch twice changes nothing). After three tries, 409 as any concurrent change: the batch
 * stays pending and the unit's retry finishes it.
 */
async function keepOpen(
  sensor: StoredSensor,
  touched: OpenDisturbance[],
  read: { open: OpenDisturbance[]; version: number },
  atMs: number,
): Promise<void> {
  const expiresAt = Math.floor(atMs / 1000) + 86_400;
  // The first try writes over what this batch's split read.
  let first: typeof read | null = read;
  await retryOnConcurrentChange(async () => {
    const current = first ?? (await getOpenDisturbances(sensor.tenant_id, sensor.sensor_id));
    first = null;
    await saveOpenDisturbances(
      sensor.tenant_id,
      sensor.sensor_id,
      mergeDisturbances(current.open, touched),
      current.version,
      expiresAt,
    );
  });
}

/** Frames show the unit is alive: last_seen_at moves at most once a minute. */
async function noteSeen(sensor: StoredSensor, lastFrameMs: number, atMs: number): Promise<void> {
  const seenMs = Math.min(lastFrameMs, atMs);
  if (sensor.last_seen_at && seenMs - Date.parse(sensor.last_seen_at) < LAST_SEEN_RESOLUTION_MS) return;
  await touchSensor(sensor.tenant_id, sensor.sensor_id, new Date(seenMs).toISOString());
}

/**
 * One `fibre.disturbance` event per detection, at the point of its peak channel on the sensor's
 * line (the sensor's own location when the line is gone or the channel lies off its ends). Ids
 * are derived from the batch's receipt time and key: a retry makes the same ones.
 */
async function detectionEvents(
  sensor: StoredSensor,
  input: TelemetryBatchInput,
  detections: { detection: Detection; index: number }[],
  dropped: number,
  batch: TelemetryBatch,
): Promise<EventInput[]> {
  const fibre = sensor.fibre!;
  const [fileId, lineId] = splitLineId(fibre.line_id);
  const line = await findLine(sensor.tenant_id, fileId, lineId);
  const seed = `${sensor.tenant_id}/telemetry/${sensor.sensor_id}/${batch.start}#${batch.batch_id}`;
  const what = input.kind === 'das' ? 'Acoustic (DAS)' : 'Temperature (DTS)';
  return detections.map(({ detection: d, index }) => {
    const distance = Math.round(channelDistance(fibre, d.channel) * 10) / 10;
    const point = line ? pointAlong(line.line.coordinates, distance) : null;
    const classified = input.classification ? `; the unit classified it as ${input.classification}` : '';
    return {
      event_id: derivedTimeId(Date.parse(batch.received_at), seed, index),
      type: 'fibre.disturbance',
      sensor_id: sensor.sensor_id,
      source: 'sensor',
      occurred_at: new Date(d.first_at).toISOString(),
      ...(point ? { location: point } : {}),
      description: `${what} reading over the threshold at ${distance} m along the line (channels ${d.channel_from} to ${d.channel_to}, peak ${d.peak} at channel ${d.channel})${classified}.`,
      payload: {
        kind: input.kind,
        channel: d.channel,
        channel_from: d.channel_from,
        channel_to: d.channel_to,
        distance_m: distance,
        peak: d.peak,
        threshold: fibre.threshold,
        frames: d.frames,
        first_at: new Date(d.first_at).toISOString(),
        last_at: new Date(d.last_at).toISOString(),
        line_id: fibre.line_id,
        on_line: point !== null,
        batch_id: batch.batch_id,
        ...(input.classification ? { classification: input.classification } : {}),
        ...(dropped > 0 ? { detections_dropped: dropped } : {}),
      },
    };
  });
}

export interface TelemetryWindow {
  sensor_id: string;
  from: string;
  to: string;
  frames: { time: string; channel_start: number; values: number[]; kind: 'das' | 'dts'; batch_id: string }[];
  next_from: string | null;
}

/**
 * The frames of [from, to], oldest first, cut to the channel range: one Query of the index
 * (batches whose first frame lies from an hour before `from` to `to`), then the objects of the
 * batches that overlap the window, in order, until `max_frames` frames (or MAX_READ_VALUES
 * values) are certain; the cut falls between two frame times, and `next_from` says where to go on.
 */
export async function readTelemetry(
  tenantId: TenantId,
  sensorId: string,
  query: TelemetryReadQuery,
): Promise<TelemetryWindow> {
  const sensor = await fibreSensor(tenantId, sensorId);
  const fromMs = Date.parse(query.from);
  const toMs = Date.parse(query.to);
  if (toMs < fromMs) throw invalid(['query', 'to'], 'must not be before from', 'value_error');
  if (toMs - fromMs > MAX_WINDOW_MS) throw invalid(['query', 'to'], 'a window is at most 24 hours', 'value_error');
  const maxFrames = query.max_frames ?? 200;
  const chFrom = query.channel_from ?? 0;
  const chTo = query.channel_to ?? Number.MAX_SAFE_INTEGER;
  const queryFrom = new Date(fromMs - MAX_BATCH_SPAN_MS).toISOString();
  const indexed = await queryTelemetryBatches(
    tenantId,
    sensor.sensor_id,
    queryFrom,
    new Date(toMs).toISOString(),
    MAX_READ_BATCHES,
  );
  // Past MAX_READ_BATCHES batches, frames from the last one's start on may lie in batches not read: the answer stops before it.
  const horizon = indexed.length === MAX_READ_BATCHES ? Date.parse(indexed.at(-1)!.start) : Infinity;
  const batches = indexed.filter(
    (b) => b.state === 'stored' && Date.parse(b.end) >= fromMs && b.channel_to >= chFrom && b.channel_from <= chTo,
  );
  type Out = TelemetryWindow['frames'][number] & { t: number };
  const collected: Out[] = [];
  for (const b of batches) {
    // Frames before this batch's first are final: enough of them, and the rest can wait.
    const startMs = Date.parse(b.start);
    if (collected.filter((f) => f.t < startMs).length > maxFrames) break;
    const bytes = await getObjectBytes(b.s3_key);
    if (!bytes) continue;
    for (const f of decodeFrames(bytes)) {
      if (f.t < fromMs || f.t > toMs || f.t >= horizon) continue;
      const lo = Math.max(chFrom, f.c0);
      const hi = Math.min(chTo, f.c0 + f.v.length - 1);
      if (lo > hi) continue;
      collected.push({
        t: f.t,
        time: new Date(f.t).toISOString(),
        channel_start: lo,
        values: f.v.slice(lo - f.c0, hi - f.c0 + 1),
        kind: b.kind,
        batch_id: b.batch_id,
      });
    }
  }
  collected.sort((a, b) => a.t - b.t || a.channel_start - b.channel_start || a.batch_id.localeCompare(b.batch_id));
  // The cut: within max_frames and MAX_READ_VALUES, between two frame times (never inside one time's frames, unless the first time alone is over).
  let end = 0;
  let values = 0;
  while (end < collected.length) {
    let groupEnd = end;
    let groupValues = 0;
    while (groupEnd < collected.length && collected[groupEnd]!.t === collected[end]!.t)
      groupValues += collected[groupEnd++]!.values.length;
    if (end > 0 && (groupEnd > maxFrames || values + groupValues > MAX_READ_VALUES)) break;
    end = groupEnd;
    values += groupValues;
  }
  const next = collected[end];
  const nextFrom = next ? next.time : horizon !== Infinity && horizon <= toMs ? new Date(horizon).toISOString() : null;
  return {
    sensor_id: sensor.sensor_id,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    frames: collected.slice(0, end).map(({ t: _t, ...f }) => f),
    next_from: nextFrom,
  };
}
