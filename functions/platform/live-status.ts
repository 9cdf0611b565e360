import { config } from '../../shared/config.js';
import { workersOfStage } from '../../shared/workers.js';
import { cachedLiveStatus, LIVE_STATUS_MAX_AGE_SECONDS } from '../../shared/domain/operations/status.js';
import { httpHandler } from '../../shared/http/handler.js';
import { liveStatusRoute } from '../../shared/routes/operations.js';

export const handler = httpHandler(liveStatusRoute, async () => ({
  json: await cachedLiveStatus(workersOfStage(config.stage)),
  headers: { 'Cache-Control': `public, max-age=${LIVE_STATUS_MAX_AGE_SECONDS}` },
}));
