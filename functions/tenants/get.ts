import { asTenant } from '../../shared/tenant-scope.js';
import { findTenant } from '../../shared/domain/accounts/tenants.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { tenantsGetRoute } from '../../shared/routes/tenants.js';

// The tenant the path names is read as itself (docs/architecture.md, 27).
export const handler = httpHandler(tenantsGetRoute, (req) =>
  asTenant(req.params.tenant_id, async () => json(await findTenant(req.params.tenant_id))),
);
