import { threatsLookups, threatTimeSeries } from '../../shared/domain/analytics/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { analyticsThreatsRoute } from '../../shared/routes/analytics.js';

export const handler = httpHandler(
  analyticsThreatsRoute,
  async (req) => json(await threatTimeSeries(req.tenant, req.query, req.read)),
  {
    // The zone and environment named are read with the caller, in one BatchGetItem.
    plan: planGate,
    prefetch: ({ query }, tenantId) => threatsLookups(tenantId, query),
  },
);
