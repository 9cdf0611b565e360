import { listVessels } from '../../shared/domain/vessels/lists.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { vesselsListRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(vesselsListRoute, async (req) => {
  const { tenant_id: _t, ...q } = req.query;
  return json(await listVessels(req.tenant, q));
});
