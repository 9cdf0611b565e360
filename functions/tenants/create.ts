import { createTenant, type TenantCreate } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('tenants.create', async (req) =>
  json(await createTenant(req.actor, req.body as TenantCreate)),
);
