import { listTenants } from '../../shared/domain/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import type { PageRequest } from '../../shared/db/query.js';

export const handler = httpHandler('tenants.list', async (req) => json(await listTenants(req.query as PageRequest)));
