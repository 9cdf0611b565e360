import { createEnvironment, type EnvironmentCreate } from '../../shared/domain/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('environments.create', async (req) =>
  json(await createEnvironment(req.actor, req.body as EnvironmentCreate)),
);
