import { findWorkflow } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsGetRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsGetRoute, async (req) =>
  json(await findWorkflow(req.tenant, req.params.workflow_id)),
);
