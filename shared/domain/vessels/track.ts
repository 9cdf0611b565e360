/** A vessel's positions between two times: one Query on its partition. */
import { getVessel, trackBetween } from '../../db/vessels/index.js';
import { NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const VESSEL_NOT_FOUND = 'No AIS data for this MMSI';

/** A vessel's positions between two times, oldest first, at most `limit` (404 for a vessel never seen). */
export async function vesselTrack(
  tenantId: TenantId,
  mmsi: string,
  q: { start_date?: string; end_date?: string; limit: number },
  nowMs = Date.now(),
) {
  const end = q.end_date ? new Date(q.end_date).toISOString() : new Date(nowMs).toISOString();
  const start = q.start_date
    ? new Date(q.start_date).toISOString()
    : new Date(Date.parse(end) - 24 * 3600_000).toISOString();
  const [vessel, positions] = await Promise.all([
    getVessel(tenantId, mmsi),
    trackBetween(tenantId, mmsi, start, end, q.limit + 1),
  ]);
  if (!vessel) throw new NotFoundError(VESSEL_NOT_FOUND);
  return {
    mmsi,
    start_date: start,
    end_date: end,
    positions: positions.slice(0, q.limit),
    truncated: positions.length > q.limit,
  };
}
