import { runPlaybook } from '../../shared/domain/workflows/run-records.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { workflowsRunRoute } from '../../shared/routes/workflows.js';

export const handler = httpHandler(workflowsRunRoute, async (req) =>
  json(await runPlaybook(req.actor, req.tenant, req.params.workflow_id, req.body ?? {}), 202),
);
