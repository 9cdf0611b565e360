import { listEvents } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { eventsListRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(eventsListRoute, async (req) => {
  const { limit, offset, ...filter } = req.query;
  return json(await listEvents(req.tenant, filter, { limit, offset }));
});
