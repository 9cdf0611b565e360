import { createVoiceUploadUrl, type VoiceUploadUrlRequest } from '../../shared/domain/incidents/voice-upload.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.voiceUploadUrl', async (req) =>
  json(await createVoiceUploadUrl(req.actor, req.body as VoiceUploadUrlRequest)),
);
