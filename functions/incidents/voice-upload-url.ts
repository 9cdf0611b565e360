import { createVoiceUploadUrl } from '../../shared/domain/incidents/voice-upload.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsVoiceUploadUrlRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsVoiceUploadUrlRoute, async (req) =>
  json(await createVoiceUploadUrl(req.tenant, req.body)),
);
