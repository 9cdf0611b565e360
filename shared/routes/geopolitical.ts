/** The geopolitical overlay: advisories and sanctions over the tenant's places, vessels and addresses (docs/connectors.md). */
import { geopoliticalRiskAnswer, geopoliticalRiskQuery } from '../schemas/geopolitical-risk.js';
import type { RouteDef } from './types.js';

export const geopoliticalRiskRoute = {
  id: 'geopoliticalRisk.get',
  method: 'GET',
  path: '/api/v1/geopolitical-risk',
  handler: 'functions/connectors/geopolitical-risk.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Advisories and sanctions over your environments, vessels and watched addresses',
  description:
    "Reads the country-level travel advisories and sanctions programmes your `state-dept-advisories`, `canada-advisory`, `ofac-sdn` and `geopolitical-list` connectors keep (the public State Department and OFAC feeds, kept by any tenant's connector of the public source, for one you have none of; Canada's country documents and your own list only through your connectors), and lays them over each of your environments (by the `country` it names), the vessels you saw in the last 7 days or watch (by the flag of the MMSI's MID, and flagged `sanctioned` when a sanctions list names their IMO number or MMSI) and the IP addresses you watch (by their country in the offline IP data). `country=` narrows it all to one country. Nothing kept yet is empty advisories, not an error.",
  request: { query: geopoliticalRiskQuery },
  response: { status: 200, description: 'The overlay.', schema: geopoliticalRiskAnswer },
  errors: [404],
  grants: { table: 'read' },
  // The IP data (about 40 MB of files) is read once per container.
  timeoutSeconds: 20,
  memoryMb: 1024,
} as const satisfies RouteDef;

export const geopoliticalRoutes: readonly RouteDef[] = [geopoliticalRiskRoute];
