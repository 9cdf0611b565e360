import { seedLibraries } from '../../shared/domain/threat-libraries/libraries.js';
import { seedPlaybooks } from '../../shared/domain/workflows/seed.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesSeedRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(
  threatLibrariesSeedRoute,
  async (req) => {
    const libraries = await seedLibraries(req.actor, req.tenant);
    // The playbooks for what the libraries detect; each part idempotent, so a retry completes what a failure left.
    return json({ ...libraries, playbooks: await seedPlaybooks(req.actor, req.tenant) });
  },
  { plan: planGate },
);
