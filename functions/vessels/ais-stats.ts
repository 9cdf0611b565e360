import { aisStats } from '../../shared/domain/vessels/ais-stats.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { vesselsAisStatsRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(vesselsAisStatsRoute, async (req) =>
  json(await aisStats(req.tenant, req.query.days)),
);
