import { checkHealth } from '../../shared/domain/operations/health.js';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../shared/http/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { healthRoute } from '../../shared/routes/platform.js';

export const handler = httpHandler(healthRoute, async () => {
  const health = await checkHealth();
  if (health.status === 'ok') return { json: health, status: 200 };
  // As every 503 of the API: when to ask again.
  return { json: health, status: 503, headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) } };
});
