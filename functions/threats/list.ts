import { listActiveThreats, threatListLookups } from '../../shared/domain/threats/active.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatsListRoute } from '../../shared/routes/threats.js';

export const handler = httpHandler(
  threatsListRoute,
  async (req) => {
    const { tenant_id: _t, limit, offset, ...filter } = req.query;
    return json(await listActiveThreats(req.tenant, filter, { limit, offset }, req.read));
  },
  {
    // The zone and library named are read with the caller, in one BatchGetItem.
    prefetch: ({ query }, tenantId) => threatListLookups(tenantId, query),
  },
);
