import { updateAsset, type AssetUpdate } from '../../shared/domain/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('assets.update', async (req) =>
  json(await updateAsset(req.actor, req.params.asset_id, req.query.tenant_id, req.body as AssetUpdate)),
);
