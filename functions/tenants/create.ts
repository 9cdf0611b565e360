import { createTenant } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsCreateRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsCreateRoute, async (req) => json(await createTenant(req.actor, req.body)));
