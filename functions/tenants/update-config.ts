import { asTenant } from '../../shared/tenant-scope.js';
import { updateTenantConfig } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsConfigUpdateRoute } from '../../shared/routes/tenants.js';

export const handler = httpHandler(tenantsConfigUpdateRoute, (req) =>
  // The tenant decided as for any route (it must exist): the policy may name its integrations.
  // It is read and changed as itself (docs/architecture.md, 27).
  asTenant(req.params.tenant_id, async () =>
    json(await updateTenantConfig(req.actor, await req.tenantOf(req.params.tenant_id), req.body)),
  ),
);
