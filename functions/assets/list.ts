import { listAssets } from '../../shared/domain/sites/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { assetsListRoute } from '../../shared/routes/assets.js';

export const handler = httpHandler(assetsListRoute, async (req) => {
  const { limit, offset, ...filter } = req.query;
  return json(await listAssets(req.tenant, filter, { limit, offset }));
});
