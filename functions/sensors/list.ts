import type { PageRequest } from '../../shared/db/query.js';
import { listSensors } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.list', async (req) => {
  const { tenant_id, environment_id, ...page } = req.query as PageRequest & { tenant_id: string; environment_id: string };
  return json(await listSensors(req.actor, tenant_id, environment_id, page));
});
