import { checkHealth } from '../../shared/domain/operations/health.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { healthRoute } from '../../shared/routes/platform.js';

export const handler = httpHandler(healthRoute, async () => {
  const health = await checkHealth();
  return json(health, health.status === 'ok' ? 200 : 503);
});
