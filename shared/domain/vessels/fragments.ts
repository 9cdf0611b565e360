/**
 * Multi-part AIS messages whose parts came in events of their own (a raw feed hands on one
 * sentence at a time, so a type 5 report's two sentences are two events, each stored with
 * `ais_error.reason` `incomplete`). The vessel tracker keeps each such part under its message's
 * group (receiver, channel, sequential id, part count) and, once every part is there, joins them
 * in order and decodes the whole message, which then tells the vessel's identity as a one-event
 * report would. Parts are joined only when they came in order within a minute: a sequential id
 * runs 0 to 9 and is used again, so older parts left by a lost sentence never join a newer one.
 */
import { decodeAis, fragmentOf } from '../../adapters/ais-decoder.js';
import { deleteFragments, fragmentsOf, putFragment, type StoredFragment } from '../../db/vessels/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { decodeAisInput, type AisEvent } from './ais-input.js';

/** The longest a message's parts may spread over, first to last. */
const JOIN_WITHIN_MS = 60_000;

function sentenceOfPart(e: AisEvent): string | null {
  if ((e.payload.ais_error as { reason?: string } | undefined)?.reason !== 'incomplete') return null;
  const nmea = e.payload.nmea;
  const sentences = typeof nmea === 'string' ? [nmea] : Array.isArray(nmea) ? nmea : [];
  return sentences.length === 1 && typeof sentences[0] === 'string' ? sentences[0] : null;
}

/** The parts in order, 1 to count, each after the one before and all within the minute; else null. */
function whole(parts: readonly StoredFragment[], count: number): StoredFragment[] | null {
  if (parts.length !== count || parts.some((p, i) => p.part !== i + 1)) return null;
  for (let i = 1; i < parts.length; i++) if (parts[i]!.occurred_at < parts[i - 1]!.occurred_at) return null;
  const spread = Date.parse(parts[parts.length - 1]!.occurred_at) - Date.parse(parts[0]!.occurred_at);
  return spread <= JOIN_WITHIN_MS ? [...parts] : null;
}

/**
 * Keeps the parts among `events` and answers the messages they complete, as AIS events of their
 * own (the last part's event id and time, the decoded fields in the payload). A retried batch
 * puts the same parts again: joined a second time, the message tells the identity nothing new.
 */
export async function joinedMessages(tenantId: TenantId, events: readonly AisEvent[]): Promise<AisEvent[]> {
  const joined: AisEvent[] = [];
  for (const e of [...events].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at))) {
    const sentence = sentenceOfPart(e);
    const fragment = sentence ? fragmentOf(sentence) : null;
    if (!sentence || !fragment || fragment.part < 1 || fragment.part > fragment.count) continue;
    const group = [e.sensor_id ?? '-', fragment.channel || '-', fragment.sequence || '-', fragment.count].join('#');
    await putFragment(tenantId, group, {
      part: fragment.part,
      sentence,
      occurred_at: e.occurred_at,
      event_id: e.event_id,
    });
    const parts = whole(await fragmentsOf(tenantId, group), fragment.count);
    if (!parts) continue;
    const sentences = parts.map((p) => p.sentence);
    if (!decodeAis(sentences).ok) continue;
    const last = parts[parts.length - 1]!;
    const decoded = decodeAisInput({
      type: 'ais.position',
      occurred_at: last.occurred_at,
      payload: { nmea: sentences },
    });
    joined.push({
      ...e,
      event_id: last.event_id,
      occurred_at: last.occurred_at,
      type: decoded.type,
      location: decoded.location ?? null,
      payload: decoded.payload as Record<string, unknown>,
    });
    await deleteFragments(
      tenantId,
      group,
      parts.map((p) => p.part),
    );
  }
  return joined;
}
