import { createWorkflow } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsCreateRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsCreateRoute, async (req) =>
  json(await createWorkflow(req.actor, req.tenant, req.body), 201),
);
