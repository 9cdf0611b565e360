import { analyticsSummary } from '../../shared/domain/analytics/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { analyticsSummaryRoute } from '../../shared/routes/analytics.js';

export const handler = httpHandler(
  analyticsSummaryRoute,
  async (req) => json(await analyticsSummary(req.tenant, req.query)),
  { plan: planGate },
);
