import { createSensor } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { sensorsCreateRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(
  sensorsCreateRoute,
  async (req) => json(await createSensor(req.actor, req.tenant, req.body, req.plan)),
  { plan: planGate },
);
