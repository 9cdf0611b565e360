/**
 * The chain every worker's handler runs in, as shared/http/handler.ts is the routes': after each
 * invocation the worker's heartbeat (shared/db/heartbeats.ts) records a run, and a failure when
 * the invocation threw or reported failed records (a batch's `batchItemFailures`), and how long its
 * batch's oldest record had waited (`batchLagMs`). The live status
 * and the agents are derived from these (shared/domain/operations/status.ts).
 */
import { recordHeartbeat } from './db/heartbeats.js';
import { log } from './log.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => Promise<unknown>;

interface BatchRecord {
  dynamodb?: { ApproximateCreationDateTime?: number };
  attributes?: { SentTimestamp?: string; ApproximateReceiveCount?: string };
}

/**
 * How long the oldest record of a batch waited before this invocation: a stream record since its
 * change (its approximate creation time, in seconds), a queue message since it was sent, on its
 * first receive only (a retry waits out its backoff by design). Null for other events.
 */
export function batchLagMs(event: unknown, nowMs: number): number | null {
  const records = (event as { Records?: BatchRecord[] } | null | undefined)?.Records;
  if (!Array.isArray(records)) return null;
  const ages = records.flatMap((r) => {
    const created = r.dynamodb?.ApproximateCreationDateTime;
    if (typeof created === 'number') return [nowMs - created * 1000];
    const sent = Number(r.attributes?.SentTimestamp);
    if (Number.isFinite(sent) && r.attributes?.ApproximateReceiveCount === '1') return [nowMs - sent];
    return [];
  });
  return ages.length > 0 ? Math.max(0, ...ages) : null;
}

const failedItems = (result: unknown): number => {
  const failures = (result as { batchItemFailures?: unknown[] } | null | undefined)?.batchItemFailures;
  return Array.isArray(failures) ? failures.length : 0;
};

/** The handler, recording a heartbeat after each invocation; its signature unchanged. */
export function withHeartbeat<H extends Handler>(workerId: string, handler: H): H {
  const wrapped = async (...args: Parameters<H>) => {
    const lag = batchLagMs(args[0], Date.now());
    let error: string | null = null;
    try {
      const result = await handler(...args);
      const failed = failedItems(result);
      if (failed > 0) error = `${failed} record${failed === 1 ? '' : 's'} failed and will be tried again`;
      return result;
    } catch (err) {
      // The class only: a message can carry an address (ECONNREFUSED 10.0.0.5:443), a table's or a
      // queue's name, and the live status is public. The message is in the worker's own log.
      error = err instanceof Error ? err.name : 'a non-Error value was thrown';
      throw err;
    } finally {
      // The work's outcome stands either way: a heartbeat that cannot be written is logged, not
      // turned into a failure that would make the work run again.
      await recordHeartbeat(workerId, Date.now(), error, lag).catch((err: unknown) => log.warn('the worker heartbeat could not be written', { worker: workerId, err }));
    }
  };
  return wrapped as H;
}
