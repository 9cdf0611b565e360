/**
 * Routes that read events either declare the plan's retention (`plan: { retention: 'events' }`,
 * docs/plans.md) and hide what is older, or read a window too short to reach past any plan's
 * retention. Cable risk is the second kind: this holds it there.
 */
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../shared/domain/accounts/plans.js';
import { v1CableRiskQuery } from '../../shared/schemas/developer.js';
import { cableRiskQuery } from '../../shared/schemas/vessels.js';

describe('plan retention and event windows', () => {
  it("cable risk's window is inside the shortest retention of any plan, so it shows nothing a plan hides", () => {
    const shortestHours = Math.min(
      ...PLANS.flatMap((p) => (p.limits.retention_days === null ? [] : [p.limits.retention_days * 24])),
    );
    expect(shortestHours).toBe(30 * 24);
    for (const query of [cableRiskQuery, v1CableRiskQuery]) {
      expect(query.properties.hours.maximum).toBeLessThanOrEqual(shortestHours);
    }
  });
});
