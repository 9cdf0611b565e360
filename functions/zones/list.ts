import type { PageRequest } from '../../shared/db/query.js';
import { listZones } from '../../shared/domain/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('zones.list', async (req) => {
  const { tenant_id, environment_id, ...page } = req.query as PageRequest & { tenant_id: string; environment_id: string };
  return json(await listZones(req.actor, tenant_id, environment_id, page));
});
