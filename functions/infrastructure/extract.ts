import { extractUploadedFile } from '../../shared/domain/infrastructure/presigned.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureExtractRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureExtractRoute, async (req) => {
  const outcome = await extractUploadedFile(req.actor, req.params.environment_id, req.params.file_id, req.tenant);
  // Too large for the request: accepted for the background extraction; its status is to be followed.
  return 'queued' in outcome ? json(outcome.queued, 202) : json(outcome.stored);
});
