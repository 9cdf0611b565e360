/**
 * A traffic model for the tenant wall's AssumeRole calls (bin/bench-tenant-wall.ts): requests of
 * tenants with Zipf-distributed shares, each landing on one of a fleet of warm containers, each
 * container with its own AssumedTenantCredentials (shared/adapters/tenant-credentials.ts, the real
 * class) on a simulated clock, and replaced by a cold one (an empty cache) after its lifetime.
 *
 * A request lands on any container of the fleet, whatever its route: real routing keeps a route's
 * requests on that route's function, so a tenant meets fewer caches than here. The model errs on
 * the side of more AssumeRole calls.
 */
import { AssumedTenantCredentials } from '../shared/adapters/tenant-credentials.js';
import type { AssumeRoleInput } from '../shared/adapters/sts-assume-role.js';
import { seededRandom } from '../test/support/seeded-random.js';

export interface FleetModel {
  /** Tenants, ranked: the k-th has a share of requests proportional to 1 / k^zipf. */
  tenants: number;
  zipf: number;
  /** Warm containers the requests spread over, evenly at random. */
  containers: number;
  ratePerSecond: number;
  minutes: number;
  /** A container is replaced by a cold one this long after it started. */
  lifetimeMinutes: number;
  /** All containers start cold at once (a deploy); otherwise their ages are spread over a lifetime. */
  coldFleet?: boolean;
  /** Calls and requests before this are not counted (the fleet warming up). */
  warmupMinutes?: number;
  seed?: number;
}

export interface FleetResult {
  requests: number;
  assumeRoles: number;
  perThousandRequests: number;
  /** The most AssumeRole calls in one second of simulated time, and in one minute. */
  peakPerSecond: number;
  peakPerMinute: number;
}

/** Draws a tenant rank (0 the busiest) with Zipf shares. */
export function zipfSampler(tenants: number, exponent: number, random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= tenants; k++) cumulative.push((total += 1 / k ** exponent));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = tenants - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const POLICY = '{"Version":"2012-10-17","Statement":[]}';

export async function simulateFleet(model: FleetModel): Promise<FleetResult> {
  const random = seededRandom(model.seed ?? 1);
  const tenant = zipfSampler(model.tenants, model.zipf, random);
  const lifetimeMs = model.lifetimeMinutes * 60_000;
  const warmupMs = (model.warmupMinutes ?? 0) * 60_000;
  let now = 0;
  const calls: number[] = [];
  // STS that answers at once, on the simulated clock: an hour's credentials.
  const sts = {
    assumeRole: async (_: AssumeRoleInput) => {
      calls.push(now);
      return { accessKeyId: 'ASIA', secretAccessKey: 's', sessionToken: 't', expiration: new Date(now + 3_600_000) };
    },
  };
  const cold = () => new AssumedTenantCredentials('arn:aws:iam::111122223333:role/td', sts, () => now);
  const fleet = Array.from({ length: model.containers }, (_, i) => ({
    source: cold(),
    // Started before the simulation: spread so that they are not all replaced at once.
    startedAt: model.coldFleet ? 0 : -Math.floor((i / model.containers) * lifetimeMs),
  }));
  const total = Math.round(model.ratePerSecond * model.minutes * 60);
  let counted = 0;
  for (let i = 0; i < total; i++) {
    now = Math.floor((i * 1000) / model.ratePerSecond);
    const container = fleet[Math.floor(random() * fleet.length)]!;
    if (now - container.startedAt >= lifetimeMs) {
      container.source = cold();
      container.startedAt = now;
    }
    await container.source.credentialsFor(`tenant-${tenant()}`, POLICY);
    if (now >= warmupMs) counted++;
  }
  const measured = calls.filter((t) => t >= warmupMs);
  const peak = (windowMs: number) => {
    const per = new Map<number, number>();
    for (const t of measured) per.set(Math.floor(t / windowMs), (per.get(Math.floor(t / windowMs)) ?? 0) + 1);
    return Math.max(0, ...per.values());
  };
  return {
    requests: counted,
    assumeRoles: measured.length,
    perThousandRequests: counted ? (measured.length * 1000) / counted : 0,
    peakPerSecond: peak(1000),
    peakPerMinute: peak(60_000),
  };
}
