import { updateTenant, type TenantUpdate } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('tenants.update', async (req) =>
  json(await updateTenant(req.actor, req.params.tenant_id, req.body as TenantUpdate)),
);
