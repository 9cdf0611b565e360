import { deleteLibrary } from '../../shared/domain/threat-libraries/libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { threatLibrariesDeleteRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(threatLibrariesDeleteRoute, async (req) => {
  await deleteLibrary(req.actor, req.tenant, req.params.library_id);
  return noContent();
});
