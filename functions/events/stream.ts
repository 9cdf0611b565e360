/** GET /api/v1/events/stream: new events as server-sent events (shared/domain/events/stream.ts). */
import { config } from '../../shared/config.js';
import { openEventStream } from '../../shared/domain/events/stream-feed.js';
import { enterStreamScope } from '../../shared/auth/tenant.js';
import { streamingHttpHandler } from '../../shared/http/stream-handler.js';
import { eventsStreamRoute } from '../../shared/routes/events.js';

const { keepAliveSeconds, maxDurationSeconds } = config.eventStream;

export const handler = streamingHttpHandler(eventsStreamRoute, async (req) => {
  const run = await openEventStream(
    {
      scope: await enterStreamScope(req.actor.principal, req.query.tenant_id),
      eventType: req.query.event_type,
      lastEventId: req.headers['last-event-id'],
    },
    { timing: { keepAliveMs: keepAliveSeconds * 1000 }, log: req.log },
  );
  const openedAt = Date.now();
  return async (sink) => {
    // Ends before the 15 minutes Lambda and API Gateway allow, so the client reconnects and resumes.
    const deadline = Math.min(sink.deadline, openedAt + maxDurationSeconds * 1000);
    const summary = await run({ send: sink.write, signal: sink.signal, deadline });
    req.log.info('event stream ended', { ...summary, duration_ms: Date.now() - openedAt });
  };
});
