import { setWorkflowEnabled } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsDisableRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsDisableRoute, async (req) =>
  json(await setWorkflowEnabled(req.actor, req.tenant, req.params.workflow_id, false)),
);
