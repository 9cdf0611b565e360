import { darkVessels } from '../../shared/domain/vessels/lists.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { vesselsDarkRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(vesselsDarkRoute, async (req) => {
  const { tenant_id: _t, ...q } = req.query;
  return json(await darkVessels(req.tenant, q));
});
