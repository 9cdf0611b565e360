import { listRoutingAlerts } from '../../shared/domain/internet-health/health-view.js';
import { invalid } from '../../shared/errors.js';
import { parsePrefix } from '../../shared/feeds/ip-prefix.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { bgpAlertsRoute } from '../../shared/routes/internet-health.js';

export const handler = httpHandler(bgpAlertsRoute, async (req) => {
  const { kind, prefix, asn, since, limit, offset } = req.query;
  if (prefix !== undefined && !parsePrefix(prefix))
    throw invalid(['query', 'prefix'], 'is not a prefix in CIDR notation with its host bits clear (193.0.0.0/21)');
  return json(await listRoutingAlerts(req.tenant, { kind, prefix, asn, since, limit, offset }));
});
