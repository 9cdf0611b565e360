import { listLibraries } from '../../shared/domain/threat-libraries/libraries.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatLibrariesListRoute } from '../../shared/routes/threat-libraries.js';

export const handler = httpHandler(threatLibrariesListRoute, async (req) =>
  json(
    await listLibraries(
      req.tenant,
      { vertical: req.query.vertical, activeOnly: req.query.active_only },
      { limit: req.query.limit, offset: req.query.offset },
    ),
  ),
);
