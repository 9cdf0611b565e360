import { listWorkflows } from '../../shared/domain/workflows/definitions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsListRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsListRoute, async (req) =>
  json(
    await listWorkflows(
      req.tenant,
      { trigger_type: req.query.trigger_type, enabled: req.query.enabled },
      { limit: req.query.limit, offset: req.query.offset },
    ),
  ),
);
