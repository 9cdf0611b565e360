import { findTenantConfig } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('tenants.config.get', async (req) =>
  json(await findTenantConfig(req.params.tenant_id)),
);
