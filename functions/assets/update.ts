import { updateAsset } from '../../shared/domain/sites/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { assetsUpdateRoute } from '../../shared/routes/assets.js';

export const handler = httpHandler(assetsUpdateRoute, async (req) =>
  json(await updateAsset(req.actor, req.params.asset_id, req.tenant, req.body)),
);
