import { config } from '../../shared/config.js';
import { workersOfStage } from '../../shared/workers.js';
import { findAgent } from '../../shared/domain/agents/settings.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { agentsGetRoute } from '../../shared/routes/operations.js';

export const handler = httpHandler(agentsGetRoute, async (req) =>
  json(await findAgent(req.tenant, req.params.agent_id, workersOfStage(config.stage))),
);
