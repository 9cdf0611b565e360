/**
 * Exact per-caller limits ("10 per minute per IP", a plan's requests per minute): API Gateway
 * and WAF throttles are approximate, so the count is ours. Per-IP limits of public routes are
 * sliding windows (no more than their number in any 60 s); a plan's rate is a window aligned to
 * the minute (one write per request, shared with ingest's event counts); the answer carries the contract's X-RateLimit-*
 * headers either way. A tenant's minute also counts the events of each of its zones, which
 * ingest reads back as the zone's activity of the last hour (shared/db/rate-limits.ts).
 */
import { backoff } from '../../db/read-batch.js';
import {
  countTenantMinute,
  readCallLog,
  tenantsWithEvents,
  writeCallLog,
  zoneEventsOfTenant,
} from '../../db/rate-limits.js';
import { RateLimitedError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';

const WINDOW_SECONDS = 60;
/** A minute is kept (TTL) a little over the hour that zone activity looks back. */
const KEEP_SECONDS = 3600 + 3 * WINDOW_SECONDS;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

function windowOf(nowMs: number) {
  const nowSeconds = Math.floor(nowMs / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  return { nowSeconds, windowStart, reset: windowStart + WINDOW_SECONDS, expiresAt: windowStart + KEEP_SECONDS };
}

const WINDOW_MS = WINDOW_SECONDS * 1000;
/** Writers of one caller's log colliding (one address sending in parallel): tries before a 429. */
const LOG_TRIES = 8;

/**
 * Counts a call of `caller` (a client IP) against `name`: at most `perMinute` accepted calls in
 * any 60 seconds (a sliding window, exact: the log of the caller's accepted calls of the last
 * minute, written only if nobody wrote it since it was read). Throws RateLimitedError past the
 * limit, with the time until the oldest call of the window leaves it; a refused call is not
 * logged. (A fixed window let 10 calls just before its reset and 10 just after through.)
 */
export async function consumeRateLimit(
  name: string,
  caller: string,
  perMinute: number,
  nowMs = Date.now(),
): Promise<RateLimitState> {
  const started = Date.now();
  for (let attempt = 0; attempt < LOG_TRIES; attempt++) {
    // Parallel calls of one address take turns, at random pauses.
    if (attempt > 0) await backoff(attempt);
    const at = nowMs + (Date.now() - started);
    const { calls, version } = await readCallLog(name, caller);
    const recent = calls.filter((t) => t > at - WINDOW_MS);
    // When the oldest call still in the window leaves it, one more is allowed.
    const frees = (recent[0] ?? at) + WINDOW_MS;
    if (recent.length >= perMinute) {
      const freesAt = recent[recent.length - perMinute]! + WINDOW_MS;
      throw new RateLimitedError(
        { limit: perMinute, remaining: 0, reset: Math.ceil(freesAt / 1000) },
        Math.max(1, Math.ceil((freesAt - at) / 1000)),
      );
    }
    const expiresAt = Math.ceil(at / 1000) + 2 * WINDOW_SECONDS;
    if (await writeCallLog(name, caller, [...recent, at], version, expiresAt)) {
      return { limit: perMinute, remaining: perMinute - recent.length - 1, reset: Math.ceil(frees / 1000) };
    }
  }
  throw new RateLimitedError({ limit: perMinute, remaining: 0, reset: Math.ceil((nowMs + 1000) / 1000) }, 1);
}

/** Events a request stores in one tenant: how many, and how many in each zone. */
export interface TenantEvents {
  events: number;
  zones: ReadonlyMap<string, number>;
}

/** What a tenant's current minute holds for the zones a request added to, its own events included. */
export type ZoneMinute = Map<string, number>;

const NO_EVENTS: TenantEvents = { events: 0, zones: new Map() };

/**
 * Counts a tenant's request against its plan's rate (`perMinute`; null: no limit, nothing is
 * counted for it) and adds the events it stores to the tenant's minute, in one write; throws
 * RateLimitedError past the limit, and then adds nothing. Returns the rate state (null for a
 * request without limit) and the minute's counts of the zones added to.
 */
export async function meterTenantRequest(
  tenantId: TenantId,
  perMinute: number | null,
  stored: TenantEvents = NO_EVENTS,
  nowMs = Date.now(),
): Promise<{ rate: RateLimitState | null; minute: ZoneMinute }> {
  const { nowSeconds, windowStart, reset, expiresAt } = windowOf(nowMs);
  const counted = await countTenantMinute(tenantId, windowStart, expiresAt, {
    request: perMinute === null ? null : { limit: perMinute },
    ...stored,
  });
  if (counted === null) {
    const state = { limit: perMinute ?? 0, remaining: 0, reset };
    throw new RateLimitedError(state, Math.max(1, reset - nowSeconds));
  }
  const rate =
    perMinute === null ? null : { limit: perMinute, remaining: Math.max(0, perMinute - counted.hits), reset };
  return { rate, minute: counted.zones };
}

/** Adds the events a request stores in a tenant that is not the caller's (a SUPER_ADMIN's batch). */
export async function addTenantEvents(
  tenantId: TenantId,
  stored: TenantEvents,
  nowMs = Date.now(),
): Promise<ZoneMinute> {
  const { windowStart, expiresAt } = windowOf(nowMs);
  return (await countTenantMinute(tenantId, windowStart, expiresAt, { request: null, ...stored }))?.zones ?? new Map();
}

/**
 * The tenants that stored events from the minute of `fromMs` to the minute of `toMs`: the live
 * stream watching every tenant reads these only.
 */
export async function tenantsWithEventsBetween(fromMs: number, toMs: number): Promise<string[]> {
  return [...(await tenantsWithEvents(windowOf(fromMs).windowStart, windowOf(toMs).windowStart))];
}

/**
 * A tenant's closed minutes of the last hour (the 60 before the current one), per zone. They no
 * longer change, so a container reads them once a minute per tenant and keeps them until the
 * minute turns (the current minute's counts come back from the meter's write).
 */
const closedMinutes = new Map<TenantId, { windowStart: number; zones: Promise<Map<string, number>> }>();

export function zoneEventsOfClosedMinutes(tenantId: TenantId, nowMs = Date.now()): Promise<Map<string, number>> {
  const { windowStart } = windowOf(nowMs);
  const cached = closedMinutes.get(tenantId);
  if (cached?.windowStart === windowStart) return cached.zones;
  if (closedMinutes.size >= 10_000) closedMinutes.clear();
  const zones = zoneEventsOfTenant(tenantId, windowStart - 3600, windowStart - 60);
  closedMinutes.set(tenantId, { windowStart, zones });
  // A failed read is not kept: the next request reads again.
  zones.catch(() => closedMinutes.delete(tenantId));
  return zones;
}
