import type { TenantConfigUpdate } from '../../shared/domain/tenant-config.js';
import { updateTenantConfig } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('tenants.config.update', async (req) =>
  json(await updateTenantConfig(req.actor, req.params.tenant_id, req.body as TenantConfigUpdate)),
);
