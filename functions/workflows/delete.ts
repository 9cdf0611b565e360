import { deleteWorkflow } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { workflowsDeleteRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsDeleteRoute, async (req) => {
  await deleteWorkflow(req.actor, req.tenant, req.params.workflow_id);
  return noContent();
});
