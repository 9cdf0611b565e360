/**
 * Worker `connector-poll` (shared/workers.ts): invoked by a connector's schedule with
 * `{tenant_id, integration_id}`, polls that connector (shared/domain/connectors/scheduled-poll.ts).
 * Anything thrown (the table unreachable) fails the invocation, which goes to the dead letters.
 */
import type { PollRequest } from '../../shared/adapters/connector-schedules.js';
import { pollScheduledConnector } from '../../shared/domain/connectors/scheduled-poll.js';
import { pollRouting } from '../../shared/domain/internet-health/poll-routing.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat('connector-poll', (event: PollRequest) =>
  pollScheduledConnector(event, pollRouting),
);
