import { findAsset } from '../../shared/domain/sites/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { assetsGetRoute } from '../../shared/routes/assets.js';

export const handler = httpHandler(assetsGetRoute, async (req) =>
  json(await findAsset(req.actor, req.params.asset_id, req.tenant)),
);
