import { updateTenantConfig } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsConfigUpdateRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsConfigUpdateRoute, async (req) =>
  json(await updateTenantConfig(req.actor, req.params.tenant_id, req.body)),
);
