/** Ids and timestamps in the contract's formats. */
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

/** A random UUID (v4), for things whose order does not matter. */
export const newId = (): string => randomUUID();

/**
 * Random bytes for ids, drawn 4 KB at a time: uuid's own v7 asks the system for 16 bytes per id,
 * a visible cost in a batch of 100 events.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function random16(): Uint8Array {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + 16);
  poolAt += 16;
  return bytes;
}

/** The last id's millisecond and counter: ids made in one millisecond count up (RFC 9562, method 1), as uuid's v7 does. */
const last = { msecs: -Infinity, seq: 0 };

/** A time-ordered UUID (v7), for things listed by time: events, incidents, audit entries. */
export function newTimeId(): string {
  const random = random16();
  const now = Date.now();
  if (now > last.msecs) {
    last.msecs = now;
    last.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    last.seq = (last.seq + 1) | 0;
    if (last.seq === 0) last.msecs++;
  }
  return v7({ random, msecs: last.msecs, seq: last.seq });
}

/**
 * The `index`th UUIDv7 of a request first received at `ms` and named by `seed` (its tenant, route
 * and Idempotency-Key): the same in every attempt of that request, so a retry finds what an
 * earlier attempt stored. Within the request the ids follow the index (it fills the 12 bits after
 * the version); the 62 bits after the variant come from a SHA-256 of the seed and the index.
 */
export function derivedTimeId(ms: number, seed: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 0xfff) throw new RangeError(`index ${index} is outside 0..4095`);
  const hash = createHash('sha256').update(`${seed}\u0000${index}`).digest();
  const t = Math.floor(ms).toString(16).padStart(12, '0').slice(-12);
  const version = (0x7000 | index).toString(16);
  const variant = (((0x80 | (hash[0]! & 0x3f)) << 8) | hash[1]!).toString(16);
  return `${t.slice(0, 8)}-${t.slice(8)}-${version}-${variant}-${hash.subarray(2, 8).toString('hex')}`;
}

/**
 * A UUID (version 8, RFC 9562's custom layout) made from a SHA-256 of `seed`: the same seed always
 * gives the same id, so a consumer can write to a thing named by what it is (a definition in a
 * zone) without reading first.
 */
export function namedId(seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 3339 UTC with milliseconds, e.g. 2026-11-21T13:45:00.123Z. */
export const now = (): string => new Date().toISOString();

/** A timestamp as people read it in a mail or a page: `2026-11-24T14:05:09.123Z` as `2026-11-24 14:05 UTC`. */
export const minuteUtc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The lowest (or highest) UUIDv7 of a millisecond: time bounds as key bounds, since UUIDv7 ids
 * sort by their time.
 */
export function timeIdBound(ms: number, edge: 'low' | 'high'): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return edge === 'low'
    ? `${t.slice(0, 8)}-${t.slice(8)}-7000-8000-000000000000`
    : `${t.slice(0, 8)}-${t.slice(8)}-7fff-bfff-ffffffffffff`;
}

/** The millisecond a UUIDv7 was made in. */
export function timeOfId(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}
