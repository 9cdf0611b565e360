/**
 * Reading an incident's drone dispatches (docs/drones.md). Apart from shared/domain/drones/dispatch.ts, so
 * the list's bundle carries neither the signing nor the outbound guard.
 */
import { listDispatches, type DroneDispatch } from '../../db/drone-dispatches.js';
import { getIncident } from '../../db/incidents.js';
import { NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** The words of shared/domain/incidents/incidents.ts (importing that module would carry it all into the list's bundle). */
const INCIDENT_NOT_FOUND = 'Incident not found';

/** The incident's dispatches, oldest first; another tenant's incident is 404 like an unknown one. */
export async function listIncidentDispatches(tenantId: TenantId, incidentId: string): Promise<DroneDispatch[]> {
  const [incident, dispatches] = await Promise.all([
    getIncident(tenantId, incidentId),
    listDispatches(tenantId, incidentId),
  ]);
  if (!incident) throw new NotFoundError(INCIDENT_NOT_FOUND);
  return dispatches.sort((a, b) => (a.dispatch_id < b.dispatch_id ? -1 : 1));
}
