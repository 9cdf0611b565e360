import { createApiKey, type ApiKeyCreate } from '../../shared/domain/api-keys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('portal.apiKeys.create', async (req) =>
  json(await createApiKey(req.actor, req.body as ApiKeyCreate)),
);
