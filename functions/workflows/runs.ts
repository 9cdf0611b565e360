import { listWorkflowRuns } from '../../shared/domain/workflows/run-records.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsRunsRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsRunsRoute, async (req) =>
  json(
    await listWorkflowRuns(req.tenant, req.params.workflow_id, req.query.status, {
      limit: req.query.limit,
      offset: req.query.offset,
    }),
  ),
);
