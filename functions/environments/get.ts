import { findEnvironment } from '../../shared/domain/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('environments.get', async (req) =>
  json(await findEnvironment(req.actor, req.params.environment_id, req.query.tenant_id)),
);
