import { findTenantConfig } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalSettingsGetRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalSettingsGetRoute, async (req) => json(await findTenantConfig(req.tenant)));
