/**
 * How an ingesting route holds an Idempotency-Key: for the invocation's remaining time (after
 * that Lambda has stopped it, so a retry may take over), answering repeats by running again (its
 * events are found by the attempt's ids: no 100-event answer stored per batch), and logging a
 * failed attempt that could not even be marked so.
 */
import type { IdempotencyOptions } from '../domain/requests/index.js';
import type { Logger } from '../log.js';

export function ingestIdempotency(req: { remainingMs: () => number; log: Logger }): IdempotencyOptions {
  return {
    leaseMs: req.remainingMs() + 1000,
    storeAnswer: false,
    onMarkFailed: (err) =>
      req.log.warn('a failed attempt could not be marked failed; a retry takes over when its lease ends', { err }),
  };
}
