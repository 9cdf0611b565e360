import type { PageRequest } from '../../shared/db/query.js';
import { listAssets, type AssetFilter } from '../../shared/domain/assets.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('assets.list', async (req) => {
  const { limit, offset, ...filter } = req.query as PageRequest & AssetFilter;
  return json(await listAssets(req.actor, filter, { limit, offset }));
});
