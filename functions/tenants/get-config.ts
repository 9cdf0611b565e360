import { asTenant } from '../../shared/tenant-scope.js';
import { findTenantConfig } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsConfigGetRoute } from '../../shared/routes/tenants.js';

// The tenant the path names is read as itself (docs/architecture.md, 27).
export const handler = httpHandler(tenantsConfigGetRoute, (req) =>
  asTenant(req.params.tenant_id, async () => json(await findTenantConfig(req.params.tenant_id))),
);
