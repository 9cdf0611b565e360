import { draftFromVoice, type VoiceInput } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.voice', async (req) => json(await draftFromVoice(req.actor, req.body as VoiceInput)));
