import { findWorkflowRun } from '../../shared/domain/workflows/run-records.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsRunGetRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsRunGetRoute, async (req) =>
  json(await findWorkflowRun(req.tenant, req.params.workflow_id, req.params.run_id)),
);
