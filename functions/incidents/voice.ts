import { draftFromVoice } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsVoiceRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsVoiceRoute, async (req) =>
  json(await draftFromVoice(req.actor, req.tenant, req.body)),
);
