/**
 * AIS messages from raw NMEA 0183 sentences (`!AIVDM` from other ships, `!AIVDO` from one's own),
 * single or multi-part, decoded with `ggencoder` (Apache-2.0; it decodes the position reports of
 * types 1-3, 18, 19 and 27 and the static data of types 5 and 24, where `ais-stream-decoder`
 * lacks 19 and 27, and it encodes, which the tests use to write their fixtures). Around it, what
 * it leaves to the caller: the checksum of every part (it checks only the first), the parts'
 * order and count, payload characters, the bit length each type needs (it reads missing bits as
 * zeros), the sign of type 27's coordinates (it reads them unsigned), and "not available" values.
 * An NMEA 4 tag block (`\c:<unix time>*hh\`) before a sentence gives the time it was received.
 */
import ggencoder from 'ggencoder';
import type { ShipIdentity } from '../vocabulary/ship-types.js';

/** Why sentences were refused: counted per reason (shared/domain/vessels/ais-input.ts). */
export const AIS_DECODE_FAILURES = [
  'checksum',
  'malformed',
  'truncated',
  'incomplete',
  'unsupported_type',
  'no_position',
] as const;
export type AisDecodeFailure = (typeof AIS_DECODE_FAILURES)[number];

export interface AisPosition {
  kind: 'position';
  message_type: number;
  mmsi: string;
  lat: number;
  lon: number;
  /** Knots; null when not available. */
  sog_knots: number | null;
  cog_degrees: number | null;
  heading_degrees: number | null;
  /** ITU-R M.1371 navigational status (0 under way using engine, 1 at anchor, 5 moored, ...); null for class B. */
  nav_status: number | null;
  /** Type 19 only: the name, ship type and dimensions it carries. */
  name?: string | null;
  ship_type?: number | null;
  dimensions?: ShipIdentity['dimensions'];
}

export interface AisStatic extends ShipIdentity {
  kind: 'static';
  message_type: number;
  mmsi: string;
}

export type AisMessage = AisPosition | AisStatic;

export type AisDecoded =
  | { ok: true; message: AisMessage; received_at: string | null }
  | { ok: false; reason: AisDecodeFailure; detail: string };

/** Bits each supported type carries at least (ITU-R M.1371-5); type 5 is often sent 2 bits short. */
const MIN_BITS: Readonly<Record<number, number>> = {
  1: 168,
  2: 168,
  3: 168,
  5: 420,
  18: 168,
  19: 312,
  24: 160,
  27: 96,
};
/** Any talker (AI, AB, AN, BS, SA...); what a receiver appends after the checksum (USCG and AISHub metadata) is left aside. */
const SENTENCE =
  /^!([A-Z]{2})VD[MO],(\d),(\d),(\d?),([AB12]?),([0-9:;<=>?@A-W`a-w]*),([0-5])\*([0-9A-Fa-f]{2})(?:,.*)?$/;
const TRAILER = /^(![^*]*\*[0-9A-Fa-f]{2}),.*$/;
const TAG_BLOCK = /^\\([^\\]*)\\/;

const fail = (reason: AisDecodeFailure, detail: string): AisDecoded => ({ ok: false, reason, detail });

function checksumOk(body: string, given: string): boolean {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum === parseInt(given, 16);
}

/** The receive time of a tag block's `c:` (Unix seconds, or milliseconds), when it has one with a good checksum. */
function tagTime(tag: string): string | null {
  const star = tag.lastIndexOf('*');
  const body = star >= 0 ? tag.slice(0, star) : tag;
  if (star >= 0 && !checksumOk(body, tag.slice(star + 1))) return null;
  const c = /(?:^|,)c:(\d{9,13})(?:,|$)/.exec(body)?.[1];
  if (!c) return null;
  const ms = c.length > 10 ? Number(c) : Number(c) * 1000;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const orNull = (value: number | undefined, unavailable: number) =>
  value === undefined || value === unavailable ? null : value;
const text = (value: string | undefined) => {
  const t = (value ?? '').replace(/@+$/, '').trim();
  return t === '' ? null : t;
};

/** Where a sentence stands in a multi-part message. */
export interface AisFragment {
  /** Parts of the message. */
  count: number;
  /** This sentence's part, from 1. */
  part: number;
  /** The sequential message id (0 to 9; empty when the sender gives none). */
  sequence: string;
  /** The radio channel (A, B, 1, 2; empty when not given). */
  channel: string;
}

/** A sentence's place in a multi-part message; null for a one-part message or what is not a sentence. */
export function fragmentOf(raw: string): AisFragment | null {
  let sentence = raw.trim();
  const tag = TAG_BLOCK.exec(sentence);
  if (tag) sentence = sentence.slice(tag[0].length);
  const f = SENTENCE.exec(sentence.replace(TRAILER, '$1'));
  if (!f || Number(f[2]) < 2) return null;
  return { count: Number(f[2]), part: Number(f[3]), sequence: f[4]!, channel: f[5]! };
}

/**
 * Decodes one AIS message from its sentences (one, or every part of a multi-part message in
 * order). Never throws: a bad input answers why.
 */
export function decodeAis(sentences: readonly string[]): AisDecoded {
  if (sentences.length === 0) return fail('malformed', 'no sentence');
  let receivedAt: string | null = null;
  const parts: string[] = [];
  for (const raw of sentences) {
    let sentence = raw.trim();
    const tag = TAG_BLOCK.exec(sentence);
    if (tag) {
      receivedAt ??= tagTime(tag[1]!);
      sentence = sentence.slice(tag[0].length);
    }
    parts.push(sentence.replace(TRAILER, '$1'));
  }
  const fields = parts.map((s) => SENTENCE.exec(s));
  for (const [i, f] of fields.entries()) {
    const star = parts[i]!.lastIndexOf('*');
    if (parts[i]!.startsWith('!') && star > 0 && /^[0-9A-Fa-f]{2}$/.test(parts[i]!.slice(star + 1))) {
      if (!checksumOk(parts[i]!.slice(1, star), parts[i]!.slice(star + 1)))
        return fail('checksum', `sentence ${i + 1}: the checksum does not match`);
    }
    if (!f)
      return fail(
        parts[i]!.includes('*') ? 'malformed' : 'truncated',
        `sentence ${i + 1} is not an AIS sentence (!AIVDM, !AIVDO or another talker's VDM/VDO)`,
      );
  }
  const count = Number(fields[0]![2]);
  if (count !== fields.length) return fail('incomplete', `the message has ${count} part(s); ${fields.length} given`);
  for (const [i, f] of fields.entries()) {
    if (f![1] !== fields[0]![1] || Number(f![2]) !== count || Number(f![3]) !== i + 1 || f![4] !== fields[0]![4]) {
      return fail('incomplete', `sentence ${i + 1} is not part ${i + 1} of the same ${count}-part message`);
    }
  }
  const payloadChars = fields.reduce((n, f) => n + f![6]!.length, 0);
  const bits = payloadChars * 6 - Number(fields[fields.length - 1]![7]);
  if (payloadChars === 0) return fail('truncated', 'the payload is empty');

  const session: Record<string, unknown> = {};
  let decoded: InstanceType<typeof ggencoder.AisDecode> | undefined;
  for (const part of parts) decoded = new ggencoder.AisDecode(part, session);
  const d = decoded!;
  const type = d.aistype;
  const minBits = MIN_BITS[type];
  if (minBits === undefined)
    return fail('unsupported_type', `message type ${type} is not a position or static-data report`);
  if (bits < minBits) return fail('truncated', `a type ${type} message needs ${minBits} bits; it has ${bits}`);

  const dims =
    d.dimA !== undefined
      ? { to_bow: d.dimA, to_stern: d.dimB ?? 0, to_port: d.dimC ?? 0, to_starboard: d.dimD ?? 0 }
      : null;
  const dimensions = dims && dims.to_bow + dims.to_stern + dims.to_port + dims.to_starboard > 0 ? dims : null;
  if (type === 5 || type === 24) {
    if (type === 24 && d.part !== 0 && d.part !== 1)
      return fail('malformed', `type 24 part ${String(d.part)} does not exist`);
    // A part B as long as a part A (168 bits are needed) is a part A some transponders mislabel:
    // read as one, as libais does.
    const mislabelled = type === 24 && d.part === 1 && bits < 168;
    const message: AisStatic = {
      kind: 'static',
      message_type: type,
      mmsi: d.mmsi,
      name: text(mislabelled ? d.GetStr(40, 120) : d.shipname),
      call_sign: mislabelled ? null : text(d.callsign),
      imo: d.imo ? d.imo : null,
      ship_type: !mislabelled && d.cargo ? d.cargo : null,
      dimensions: mislabelled ? null : dimensions,
      draught_m: d.draught ? d.draught : null,
      destination: text(d.destination),
    };
    return { ok: true, message, received_at: receivedAt };
  }

  let { lat, lon } = d;
  let sog = d.sog;
  let cog = d.cog;
  if (type === 27) {
    // 1/10 minute, signed (18 and 17 bits); speed in knots (63: not available), course in degrees (511).
    lon = d.GetInt(44, 18, true) / 600;
    lat = d.GetInt(62, 17, true) / 600;
    sog = sog === 63 ? undefined : sog;
    cog = cog === 511 ? undefined : cog;
  } else {
    sog = sog === 102.3 ? undefined : sog;
    cog = cog === 360 ? undefined : cog;
  }
  // 181 and 91 degrees (or their 1/10 minute equivalents) mean "not available".
  if (lat === undefined || lon === undefined || Math.abs(lon) > 180 || Math.abs(lat) > 90) {
    return fail('no_position', `type ${type} report of ${d.mmsi} carries no position`);
  }
  const message: AisPosition = {
    kind: 'position',
    message_type: type,
    mmsi: d.mmsi,
    lat: Math.round(lat * 1e6) / 1e6,
    lon: Math.round(lon * 1e6) / 1e6,
    sog_knots: sog ?? null,
    cog_degrees: cog ?? null,
    heading_degrees: orNull(d.hdg, 511),
    nav_status: type <= 3 || type === 27 ? orNull(d.navstatus, 15) : null,
    ...(type === 19 ? { name: text(d.shipname), ship_type: d.cargo ? d.cargo : null, dimensions } : {}),
  };
  return { ok: true, message, received_at: receivedAt };
}
