import { findTenantConfig } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsConfigGetRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsConfigGetRoute, async (req) =>
  json(await findTenantConfig(req.params.tenant_id)),
);
