import { deleteAsset } from '../../shared/domain/sites/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { assetsDeleteRoute } from '../../shared/routes/assets.js';

export const handler = httpHandler(assetsDeleteRoute, async (req) => {
  await deleteAsset(req.actor, req.params.asset_id, req.tenant);
  return noContent();
});
