import { updateEnvironment, type EnvironmentUpdate } from '../../shared/domain/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('environments.update', async (req) =>
  json(await updateEnvironment(req.actor, req.params.environment_id, req.query.tenant_id, req.body as EnvironmentUpdate)),
);
