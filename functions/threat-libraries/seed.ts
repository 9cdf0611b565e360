import { seedLibraries } from '../../shared/domain/threat-libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesSeedRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(threatLibrariesSeedRoute, async (req) => json(await seedLibraries(req.actor, req.tenant)));
