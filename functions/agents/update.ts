import { config } from '../../shared/config.js';
import { workersOfStage } from '../../shared/workers.js';
import { updateAgent } from '../../shared/domain/agents/settings.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { agentsUpdateRoute } from '../../shared/routes/operations.js';

export const handler = httpHandler(agentsUpdateRoute, async (req) =>
  json(await updateAgent(req.actor, req.tenant, req.params.agent_id, req.body, workersOfStage(config.stage))),
);
