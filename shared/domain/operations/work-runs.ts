/**
 * Work an agent does inside a request (shared/vocabulary/agents.ts `inRequest`): a short
 * recording transcribed and its fields extracted while the voice route answers. Each run is
 * recorded as a heartbeat under the work's id, as a worker's invocation is (shared/worker-handler.ts),
 * so the agent's status, runs and last run tell of it.
 */
import { recordHeartbeat } from '../../db/heartbeats.js';
import { log } from '../../log.js';

/**
 * Runs `work` and records one run of `workId`: failed when it throws an error `isFault` counts as
 * the agent's own (a recogniser that cannot be reached, not a recording that cannot be read). The
 * error goes on either way; a heartbeat that cannot be written is logged, never the request's failure.
 */
export async function recordedRun<T>(
  workId: string,
  work: () => Promise<T>,
  isFault: (err: unknown) => boolean = () => true,
): Promise<T> {
  let error: string | null = null;
  try {
    return await work();
  } catch (err) {
    // The class only, as for workers: the status is public and a message can carry an address.
    if (isFault(err)) error = err instanceof Error ? err.name : 'a non-Error value was thrown';
    throw err;
  } finally {
    await recordHeartbeat(workId, Date.now(), error).catch((err: unknown) =>
      log.warn('a heartbeat could not be written', { work: workId, err }),
    );
  }
}
