import { listWatchlistAlerts } from '../../shared/domain/watchlist/alert-reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import type { Reply } from '../../shared/http/reply.js';
import { watchlistAlertsRoute } from '../../shared/routes/watchlist.js';

export const handler = httpHandler(
  watchlistAlertsRoute,
  async (req): Promise<Reply> => {
    const { limit, offset, tenant_id: _t, ...filter } = req.query;
    const page = await listWatchlistAlerts(req.tenant, filter, { limit, offset }, req.plan);
    return { json: page.alerts, headers: page.readLimitReached ? { 'X-Read-Limit-Reached': 'true' } : {} };
  },
  { plan: planGate },
);
