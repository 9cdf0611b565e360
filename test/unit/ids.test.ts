/** Time-ordered ids: listing by time and the live stream depend on their order. */
import { describe, expect, it } from 'vitest';
import { newTimeId, timeOfId } from '../../shared/ids.js';

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
