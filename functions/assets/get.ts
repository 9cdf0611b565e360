import { findAsset } from '../../shared/domain/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('assets.get', async (req) => json(await findAsset(req.actor, req.params.asset_id, req.query.tenant_id)));
