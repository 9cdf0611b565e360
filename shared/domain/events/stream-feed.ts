/**
 * The live event stream over the table: whose events a caller may watch, and the reads
 * (shared/db/events.ts `eventsAfter`, the tenants that stored events lately) behind
 * shared/domain/events/stream.ts.
 */
import { eventsAfter } from '../../db/events.js';
import { tenantsWithEventsBetween } from '../requests/index.js';
import type { Logger } from '../../log.js';
import {
  parseLastEventId,
  runEventStream,
  startPosition,
  type EventFeed,
  type StreamScope,
  type StreamSummary,
  type StreamTiming,
} from './stream.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

export function tableFeed(eventType: string | undefined): EventFeed {
  return {
    read: (tenantId, afterId, upToId, limit) => eventsAfter(tenantId, afterId, upToId, limit, eventType),
    // For a stream a SUPER_ADMIN opened without naming a tenant (decided at the edge): the
    // tenants the table's index names as having stored events.
    tenantsWithEvents: async (fromMs, toMs) =>
      (await tenantsWithEventsBetween(fromMs, toMs)).map((id): TenantId => systemTenant(id)),
  };
}

export interface EventStreamRequest {
  /** Whose events: one tenant, decided at the edge, or every tenant (a SUPER_ADMIN naming none). */
  scope: StreamScope;
  /** The query's filter. */
  eventType?: string;
  /** The `Last-Event-ID` header as sent. */
  lastEventId?: string;
}

export interface StreamWriter {
  send(chunk: string): Promise<void>;
  signal: AbortSignal;
  deadline: number;
}

/**
 * Checks the request before anything is sent (422 for a malformed Last-Event-ID) and fixes the
 * starting point; returns what runs the stream.
 */
export async function openEventStream(
  request: EventStreamRequest,
  options: { timing?: Partial<StreamTiming>; log?: Pick<Logger, 'warn'> } = {},
): Promise<(writer: StreamWriter) => Promise<StreamSummary>> {
  const lastEventId = parseLastEventId(request.lastEventId);
  const { scope } = request;
  const start = startPosition(lastEventId, Date.now());
  const feed = tableFeed(request.eventType);
  return (writer) => runEventStream({ scope, start, feed, ...writer, ...options });
}
