import { findLibrary } from '../../shared/domain/threat-libraries/libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesGetRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(threatLibrariesGetRoute, async (req) =>
  json(await findLibrary(req.tenant, req.params.library_id)),
);
