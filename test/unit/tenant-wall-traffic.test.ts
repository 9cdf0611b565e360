/**
 * The traffic model behind bin/bench-tenant-wall.ts's AssumeRole counts: it drives the real
 * credential cache, so its counts follow the cache's rules (one session per tenant per container,
 * assumed again 20 minutes before its hour is up, lost with the container).
 */
import { describe, expect, it } from 'vitest';
import { simulateFleet, zipfSampler } from '../../bin/tenant-wall-traffic.js';
import { seededRandom } from '../support/seeded-random.js';

const one = { tenants: 1, zipf: 1, containers: 1, ratePerSecond: 1, coldFleet: true };

describe('the tenant wall traffic model', () => {
  it('one tenant on one container: a session every 40 minutes', async () => {
    const r = await simulateFleet({ ...one, minutes: 120, lifetimeMinutes: 24 * 60 });
    expect(r.requests).toBe(7200);
    // At 0, 40 and 80 minutes.
    expect(r.assumeRoles).toBe(3);
    expect(r.peakPerSecond).toBe(1);
  });

  it('a container replaced by a cold one assumes again', async () => {
    const r = await simulateFleet({ ...one, minutes: 120, lifetimeMinutes: 30 });
    expect(r.assumeRoles).toBe(4);
  });

  it('a cold fleet: one call per tenant per container, however many requests', async () => {
    const r = await simulateFleet({
      ...one,
      tenants: 3,
      containers: 2,
      ratePerSecond: 50,
      minutes: 10,
      lifetimeMinutes: 60,
    });
    expect(r.assumeRoles).toBe(6);
    expect(r.perThousandRequests).toBeCloseTo(6 / 30, 5);
  });

  it('calls of the warm-up are not counted', async () => {
    const r = await simulateFleet({ ...one, minutes: 120, lifetimeMinutes: 24 * 60, warmupMinutes: 30 });
    expect(r.requests).toBe(5400);
    expect(r.assumeRoles).toBe(2);
  });

  it("Zipf shares: the busiest tenant's share is 1 / H(n)", () => {
    const draw = zipfSampler(100, 1, seededRandom(7));
    const counts = new Array<number>(100).fill(0);
    for (let i = 0; i < 100_000; i++) counts[draw()]!++;
    const harmonic = Array.from({ length: 100 }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b);
    expect(counts[0]! / 100_000).toBeCloseTo(1 / harmonic, 2);
    expect(counts[0]!).toBeGreaterThan(counts[9]! * 5);
  });
});
