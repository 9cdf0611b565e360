import { internetHealth } from '../../shared/domain/internet-health/health-view.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { internetHealthRoute } from '../../shared/routes/internet-health.js';

export const handler = httpHandler(internetHealthRoute, async (req) =>
  json(await internetHealth(req.tenant, { hours: req.query.hours, updates: req.query.updates })),
);
