import type { PageRequest } from '../../shared/db/query.js';
import { listEvents, type EventFilter } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('events.list', async (req) => {
  const { limit, offset, ...filter } = req.query as PageRequest & EventFilter;
  return json(await listEvents(req.actor, filter, { limit, offset }));
});
