import { removeWatchlistEntry } from '../../shared/domain/watchlist/entries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { watchlistRemoveRoute } from '../../shared/routes/watchlist.js';

export const handler = httpHandler(watchlistRemoveRoute, async (req) => {
  await removeWatchlistEntry(req.actor, req.tenant, req.params.entry_id);
  return noContent();
});
