import { listTenants } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsListRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsListRoute, async (req) => json(await listTenants(req.query)));
