import { updateTenant } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsUpdateRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsUpdateRoute, async (req) =>
  json(await updateTenant(req.actor, req.params.tenant_id, req.body)),
);
