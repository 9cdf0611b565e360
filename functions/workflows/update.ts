import { updateWorkflow } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsUpdateRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsUpdateRoute, async (req) =>
  json(await updateWorkflow(req.actor, req.tenant, req.params.workflow_id, req.body)),
);
