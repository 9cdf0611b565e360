import { findTenant } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('tenants.get', async (req) => json(await findTenant(req.params.tenant_id)));
