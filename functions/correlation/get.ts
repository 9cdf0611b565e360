import { correlate } from '../../shared/domain/correlation/correlate.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { correlationRoute } from '../../shared/routes/correlation.js';

export const handler = httpHandler(
  correlationRoute,
  async (req) => json(await correlate(req.tenant, req.query, req.plan)),
  { plan: planGate },
);
