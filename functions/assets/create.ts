import { createAsset } from '../../shared/domain/sites/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { assetsCreateRoute } from '../../shared/routes/assets.js';

export const handler = httpHandler(assetsCreateRoute, async (req) =>
  json(await createAsset(req.actor, req.tenant, req.body)),
);
