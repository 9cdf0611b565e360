/**
 * A vessel's identity from reports that each tell part of it (shared/domain/vessels/tracker.ts):
 * gpsd's sample vessel 271041815 (PROGUY) sends its name in a type 24 part A and its ship type,
 * call sign and size in a part B; what one report tells must survive the next.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_IDENTITY, mergeIdentity } from '../../shared/domain/vessels/tracker.js';

const { reported_at: _at, ...none } = EMPTY_IDENTITY;
const partA = { ...none, name: 'PROGUY' };
const partB = {
  ...none,
  call_sign: 'TC6163',
  ship_type: 60,
  dimensions: { to_bow: 0, to_stern: 15, to_port: 0, to_starboard: 5 },
};
const T1 = '2026-11-25T10:00:00.000Z';
const T2 = '2026-11-25T10:00:30.000Z';

describe('mergeIdentity', () => {
  it('keeps what each part of a type 24 told, in either order', () => {
    const ab = mergeIdentity(mergeIdentity(null, partA, T1), partB, T2);
    const ba = mergeIdentity(mergeIdentity(null, partB, T2), partA, T1);
    const whole = { ...partB, name: 'PROGUY', reported_at: T2 };
    expect(ab).toEqual(whole);
    expect(ba).toEqual(whole);
  });

  it('lets a newer report replace what it tells, an older one only fill what is unknown, and "not available" erase nothing', () => {
    const stored = mergeIdentity(null, { ...partB, name: 'PROGUY' }, T2)!;
    expect(mergeIdentity(stored, { ...none, name: 'OLD NAME', imo: 9134270 }, T1)).toMatchObject({
      name: 'PROGUY',
      imo: 9134270,
      reported_at: T2,
    });
    expect(mergeIdentity(stored, { ...none, name: 'RENAMED' }, '2026-11-25T11:00:00.000Z')).toMatchObject({
      name: 'RENAMED',
      call_sign: 'TC6163',
    });
    // The same report again changes nothing (a retried stream batch).
    expect(mergeIdentity(stored, { ...partB, name: 'PROGUY' }, T2)).toBeNull();
  });
});
