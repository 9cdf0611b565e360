/**
 * A request's count against its tenant's plan rate, as the handler chain keeps it: counted at
 * authentication, or (for a route that counts itself, `meter: 'function'`) by the route once it
 * knows what it will write, with the events it stores, in the same write; a request that ends
 * before that is counted when it ends. Holds the rate state for the X-RateLimit headers.
 */
import {
  addTenantEvents,
  meterTenantRequest,
  type RateLimitState,
  type TenantEvents,
  type ZoneMinute,
} from '../domain/requests/index.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface TenantRate {
  tenantId: TenantId;
  /** Null: the plan has no rate; events are still counted. */
  perMinute: number | null;
}

export class TenantMeter {
  /** The last count's state, for the answer's headers. */
  rate: RateLimitState | undefined;
  private pending: TenantRate | null = null;

  /** Counts the request now; throws RateLimitedError past the rate. */
  async count(own: TenantRate): Promise<void> {
    if (own.perMinute === null) return;
    this.rate = (await meterTenantRequest(own.tenantId, own.perMinute)).rate ?? this.rate;
  }

  /** Leaves the count to the route (`meter`), or to the end of the request. */
  defer(own: TenantRate): void {
    this.pending = own;
  }

  get deferred(): boolean {
    return this.pending !== null;
  }

  /**
   * Counts the deferred request with the events it stores (each tenant's in that tenant's minute
   * of `atMs`; the caller's in the same write), and returns each tenant's minute counts of the
   * zones added to.
   */
  async meter(stored: Map<TenantId, TenantEvents>, atMs: number): Promise<Map<TenantId, ZoneMinute>> {
    const minutes = new Map<TenantId, ZoneMinute>();
    const own = this.pending;
    if (own) {
      this.pending = null;
      const { rate, minute } = await meterTenantRequest(own.tenantId, own.perMinute, stored.get(own.tenantId), atMs);
      this.rate = rate ?? this.rate;
      minutes.set(own.tenantId, minute);
    }
    for (const [tenantId, counts] of stored) {
      if (!minutes.has(tenantId)) minutes.set(tenantId, await addTenantEvents(tenantId, counts, atMs));
    }
    return minutes;
  }

  /** Counts a deferred request that ended without counting itself. */
  async atEnd(): Promise<void> {
    const own = this.pending;
    if (!own) return;
    this.pending = null;
    this.rate = (await meterTenantRequest(own.tenantId, own.perMinute)).rate ?? this.rate;
  }
}
