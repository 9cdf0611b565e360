/**
 * The live event stream over the table: the reads behind shared/domain/events/stream.ts (each
 * tenant's store sequence, GSI5: shared/db/event-sequence.ts; the tenants that stored events
 * lately, GSI4) and where a stream starts.
 */
import { findSequencedEvent, sequenceEntries, sequenceOfEvent } from '../../db/event-sequence.js';
import { tenantsWithEventsBetween } from '../requests/index.js';
import type { Logger } from '../../log.js';
import {
  parseLastEventId,
  runEventStream,
  streamStart,
  type EventFeed,
  type StreamScope,
  type StreamSummary,
  type StreamTiming,
} from './stream.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

export const tableFeed: EventFeed = {
  after: (tenantId, afterSeq, limit) => sequenceEntries(tenantId, { afterSeq }, limit),
  before: (tenantId, beforeSeq, limit) => sequenceEntries(tenantId, { beforeSeq }, limit),
  sequenceOf: sequenceOfEvent,
  find: findSequencedEvent,
  // For a stream a SUPER_ADMIN opened without naming a tenant (decided at the edge): the
  // tenants the table's index names as having stored events.
  tenantsWithEvents: async (fromMs, toMs) =>
    (await tenantsWithEventsBetween(fromMs, toMs)).map((id): TenantId => systemTenant(id)),
};

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
 * starting point (a failed read answers an error, not a stream); returns what runs the stream.
 */
export async function openEventStream(
  request: EventStreamRequest,
  options: { timing?: Partial<StreamTiming>; log?: Pick<Logger, 'warn'> } = {},
): Promise<(writer: StreamWriter) => Promise<StreamSummary>> {
  const lastEventId = parseLastEventId(request.lastEventId);
  const { scope, eventType } = request;
  const start = await streamStart(scope, tableFeed, lastEventId, Date.now(), options.timing?.activeLookbackMs);
  return (writer) => runEventStream({ scope, start, eventType, feed: tableFeed, ...writer, ...options });
}
