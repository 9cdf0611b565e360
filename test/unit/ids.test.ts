/** Time-ordered ids: listing by time and the live stream depend on their order. */
import { describe, expect, it } from 'vitest';
import { derivedTimeId, newTimeId, timeOfId } from '../../shared/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTimeId', () => {
  it('makes UUIDv7s that sort in the order they were made, many to a millisecond, and all differ', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newTimeId());
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(timeOfId(ids[0]!)).toBeGreaterThanOrEqual(before);
    expect(timeOfId(ids.at(-1)!)).toBeLessThanOrEqual(after + 1);
  });
});

describe('derivedTimeId', () => {
  const at = Date.parse('2026-11-24T12:00:00.123Z');
  const seed = 'tenant\nevents.batch\nkey-1';

  it('makes the same UUIDv7 for the same request and index, in every attempt', () => {
    const first = Array.from({ length: 100 }, (_, i) => derivedTimeId(at, seed, i));
    const again = Array.from({ length: 100 }, (_, i) => derivedTimeId(at, seed, i));
    expect(again).toEqual(first);
    for (const id of first) {
      expect(id).toMatch(V7);
      expect(timeOfId(id)).toBe(at);
    }
  });

  it("keeps the request's order, and differs for another index, key or first time", () => {
    const ids = Array.from({ length: 4096 }, (_, i) => derivedTimeId(at, seed, i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const other = new Set([
      derivedTimeId(at, 'tenant\nevents.batch\nkey-2', 0),
      derivedTimeId(at + 1, seed, 0),
      derivedTimeId(at, seed, 0),
    ]);
    expect(other.size).toBe(3);
    expect(() => derivedTimeId(at, seed, 4096)).toThrow(RangeError);
  });
});
