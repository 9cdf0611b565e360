/**
 * AIS reports as they are ingested: an `ais.position` or `ais.static` event whose payload holds
 * raw NMEA sentences (`nmea`) is decoded before it is located, so it is stored with the decoded
 * fields, the vessel's position as its `location` (zones, threat definitions and scoring see it)
 * and, from a tag block, the time it was received as `occurred_at`. A static-data message sent as
 * `ais.position` (a raw feed mixes both) is stored as `ais.static`. A sentence that does not
 * decode never fails its batch: the event is stored with `payload.ais_error` (reason and detail),
 * and the vessel tracker counts it (docs/vessels.md).
 */
import { decodeAis, type AisMessage } from '../../adapters/ais-decoder.js';
import type { EventInput } from '../events/index.js';

/** An AIS event as stored (the stream's new image; the API's view has the same fields). */
export interface AisEvent {
  event_id: string;
  tenant_id: string;
  environment_id: string | null;
  /** The receiver that heard it, when the event names one (the parts of a message are joined per receiver). */
  sensor_id?: string | null;
  type: string;
  occurred_at: string;
  location: { lat: number; lon: number } | null;
  matched_zone_ids: string[];
  payload: Record<string, unknown>;
}

export const AIS_EVENT_TYPES: readonly string[] = ['ais.position', 'ais.static'];

/** The input as it is stored: decoded when it carries sentences, unchanged otherwise. */
export function decodeAisInput(input: EventInput): EventInput {
  if (!AIS_EVENT_TYPES.includes(input.type) || !input.payload) return input;
  const nmea = (input.payload as { nmea?: unknown }).nmea;
  if (nmea === undefined) return input;
  const sentences = typeof nmea === 'string' ? [nmea] : (nmea as string[]);
  const decoded = decodeAis(sentences);
  const payload = { ...input.payload, nmea: sentences };
  if (!decoded.ok)
    return { ...input, payload: { ...payload, ais_error: { reason: decoded.reason, detail: decoded.detail } } };
  const { message } = decoded;
  const occurred_at = input.occurred_at ?? decoded.received_at ?? undefined;
  return {
    ...input,
    type: message.kind === 'position' ? 'ais.position' : 'ais.static',
    ...(occurred_at ? { occurred_at } : {}),
    ...(message.kind === 'position' ? { location: input.location ?? { lat: message.lat, lon: message.lon } } : {}),
    payload: { ...payload, ...fieldsOf(message) },
  };
}

function fieldsOf(message: AisMessage): Record<string, unknown> {
  const { kind: _k, ...fields } = message;
  if (message.kind === 'position') {
    const { lat: _lat, lon: _lon, ...rest } = fields as Record<string, unknown>;
    return rest;
  }
  return fields;
}
