import { addWatchlistEntry } from '../../shared/domain/watchlist/add.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { watchlistAddRoute } from '../../shared/routes/watchlist.js';

export const handler = httpHandler(watchlistAddRoute, async (req) =>
  json(await addWatchlistEntry(req.actor, req.tenant, req.body)),
);
