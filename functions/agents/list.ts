import { config } from '../../shared/config.js';
import { workersOfStage } from '../../shared/workers.js';
import { listAgents } from '../../shared/domain/agents/settings.js';
import { httpHandler } from '../../shared/http/handler.js';
import { pageOfWhole } from '../../shared/http/list-page.js';
import { json } from '../../shared/http/reply.js';
import { agentsListRoute } from '../../shared/routes/operations.js';

export const handler = httpHandler(agentsListRoute, async (req) =>
  json(pageOfWhole(await listAgents(req.tenant, workersOfStage(config.stage)), req.query)),
);
