import { findTenant } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsGetRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsGetRoute, async (req) => json(await findTenant(req.params.tenant_id)));
