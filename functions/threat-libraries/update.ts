import { updateLibrary } from '../../shared/domain/threat-libraries/libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesUpdateRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(
  threatLibrariesUpdateRoute,
  async (req) => json(await updateLibrary(req.actor, req.tenant, req.params.library_id, req.body)),
  { plan: planGate },
);
