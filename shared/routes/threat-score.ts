/** The seven-factor threat score for operators (docs/threat-score.md); `/v1/threat-score` gives the same to developers. */
import { threatScoreQuery, threatScoreResponse } from '../schemas/threat-score.js';
import type { RouteDef } from './types.js';

export const THREAT_SCORE_DESCRIPTION =
  "A 0..100 composite of seven factors, each 0..1 with the context's weight: indicators and watchlists (the tenant's watchlist and its threat definitions' indicators), history (the tenant's events naming the target in 90 days, or the plan's event retention if shorter, their incidents and matched definitions), recency and frequency, geography (an IP's country and ASN from an offline database; a domain's country-code TLD; the zones at a position), behaviour (a vessel's gaps, loitering and speed anomalies; a sensor's state; the share of events that matched or opened incidents), proximity to the tenant's critical assets and lines, and the context's weighting. Deterministic; docs/threat-score.md gives every figure. A score that touches a watched entity raises a watchlist alert (once an hour per entry and target).";

export const threatScoreRoute = {
  id: 'threatScore.get',
  method: 'GET',
  path: '/api/v1/threat-score',
  handler: 'functions/threats/score.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threats',
  summary: 'Seven-factor threat score of an IP, a domain, an MMSI, a location or a sensor',
  description: THREAT_SCORE_DESCRIPTION,
  request: { query: threatScoreQuery },
  response: { status: 200, description: 'The score and its factors.', schema: threatScoreResponse },
  plan: { retention: 'events' },
  errors: [404],
  grants: { table: 'write', bucket: 'read' },
  timeoutSeconds: 20,
  memoryMb: 1024,
} as const satisfies RouteDef;

export const threatScoreRoutes: readonly RouteDef[] = [threatScoreRoute];
