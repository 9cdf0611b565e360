import { updateTenantConfig } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalSettingsUpdateRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalSettingsUpdateRoute, async (req) =>
  json(await updateTenantConfig(req.actor, req.tenant, req.body)),
);
