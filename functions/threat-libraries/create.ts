import { createLibrary } from '../../shared/domain/threat-libraries/libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesCreateRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(
  threatLibrariesCreateRoute,
  async (req) => json(await createLibrary(req.actor, req.tenant, req.body)),
  { plan: planGate },
);
