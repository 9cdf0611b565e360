/**
 * Workers' heartbeats against the run's DynamoDB Local: a handler wrapped by `withHeartbeat`
 * (shared/worker-handler.ts) records each run, its failure (thrown or reported per record) and how
 * long its batch had waited; the workers' health (shared/domain/operations/status.ts) reads them back.
 * Each test uses a worker id of its own, so the stack's real workers do not mix in.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchLagMs, withHeartbeat } from '../../shared/worker-handler.js';
import { workersHealth, type WorkerRef } from '../../shared/domain/operations/status.js';

const streamWorker = (): WorkerRef => ({
  id: `test-stream-${randomUUID().slice(0, 8)}`,
  trigger: { kind: 'table-stream' },
});
const healthOf = async (w: WorkerRef) => (await workersHealth([w]))[0]!;
const streamBatch = (ageSeconds: number) => ({
  Records: [{ dynamodb: { ApproximateCreationDateTime: Math.floor(Date.now() / 1000) - ageSeconds } }],
});

describe('worker heartbeats', () => {
  it('a healthy run makes the worker active, with its runs and the lag of its batch', async () => {
    const w = streamWorker();
    const handler = withHeartbeat(w.id, async (_event: unknown) => ({ batchItemFailures: [] }));
    await handler(streamBatch(2));
    await handler(streamBatch(1));
    const health = await healthOf(w);
    expect(health).toMatchObject({ status: 'active', reason: null, runs_24h: 2, errors_24h: 0 });
    expect(health.lag_ms).toBeGreaterThanOrEqual(1_000);
    expect(health.lag_ms).toBeLessThan(60_000);
  });

  it('a batch whose oldest record waited over a minute makes it degraded, saying how long', async () => {
    const w = streamWorker();
    await withHeartbeat(w.id, async (_event: unknown) => ({ batchItemFailures: [] }))(streamBatch(120));
    const health = await healthOf(w);
    expect(health.status).toBe('degraded');
    expect(health.reason).toMatch(/had waited 12\d s/);
  });

  it('a run that throws is counted failed and the error still reaches the caller; records reported failed count too', async () => {
    const w = streamWorker();
    const failing = withHeartbeat(w.id, async (_event: unknown) => {
      throw new Error('table unreachable');
    });
    await expect(failing(streamBatch(1))).rejects.toThrow('table unreachable');
    // The error's class, never its message: a message can name an address, and the live status is public.
    expect(await healthOf(w)).toMatchObject({
      status: 'degraded',
      errors_24h: 1,
      reason: 'its last run failed: Error',
    });
    const withAddress = withHeartbeat(w.id, async (_event: unknown) => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8000'), { name: 'TimeoutError' });
    });
    await expect(withAddress(streamBatch(1))).rejects.toThrow('ECONNREFUSED');
    const health = await healthOf(w);
    expect(health.reason).toBe('its last run failed: TimeoutError');
    expect(JSON.stringify(health)).not.toContain('10.1.2.3');
    // A later run that reports failed records is a failure too.
    await withHeartbeat(w.id, async (_event: unknown) => ({ batchItemFailures: [{ itemIdentifier: '1' }] }))(
      streamBatch(1),
    );
    expect(await healthOf(w)).toMatchObject({
      runs_24h: 3,
      errors_24h: 3,
      reason: 'its last run failed: 1 record failed and will be tried again',
    });
  });

  it("a queue message's lag counts on its first receive only: a retry waits out its backoff by design", () => {
    const now = Date.now();
    const message = (receives: number, ageMs: number) => ({
      attributes: { ApproximateReceiveCount: String(receives), SentTimestamp: String(now - ageMs) },
    });
    expect(batchLagMs({ Records: [message(1, 5_000), message(1, 9_000)] }, now)).toBe(9_000);
    expect(batchLagMs({ Records: [message(3, 3_600_000)] }, now)).toBeNull();
    expect(batchLagMs({ 'detail-type': 'Scheduled Event' }, now)).toBeNull();
  });
});
