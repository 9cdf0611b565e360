import { findWatchlistEntry } from '../../shared/domain/watchlist/entries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { watchlistGetRoute } from '../../shared/routes/watchlist.js';

export const handler = httpHandler(watchlistGetRoute, async (req) =>
  json(await findWatchlistEntry(req.tenant, req.params.entry_id)),
);
