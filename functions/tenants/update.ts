import { asTenant } from '../../shared/tenant-scope.js';
import { updateTenant } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsUpdateRoute } from '../../shared/routes/tenants.js';

// The tenant the path names is changed as itself (docs/architecture.md, 27).
export const handler = httpHandler(tenantsUpdateRoute, (req) =>
  asTenant(req.params.tenant_id, async () => json(await updateTenant(req.actor, req.params.tenant_id, req.body))),
);
