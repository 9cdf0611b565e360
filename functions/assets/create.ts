import { createAsset, type AssetCreate } from '../../shared/domain/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('assets.create', async (req) => json(await createAsset(req.actor, req.body as AssetCreate)));
