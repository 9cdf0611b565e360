import { listWatchlist } from '../../shared/domain/watchlist/entries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { watchlistListRoute } from '../../shared/routes/watchlist.js';

export const handler = httpHandler(watchlistListRoute, async (req) =>
  json(
    await listWatchlist(
      req.tenant,
      { entityType: req.query.entity_type },
      { limit: req.query.limit, offset: req.query.offset },
    ),
  ),
);
