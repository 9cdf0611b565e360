import { checkHealth } from '../../shared/domain/health.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('health', async () => {
  const health = await checkHealth();
  return json(health, health.status === 'ok' ? 200 : 503);
});
