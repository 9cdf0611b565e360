/**
 * The webhook pipeline in a test's own process, on a fake clock: local queues, and the real
 * dispatcher and deliverer workers (their whole chains, as deployed) run by the local queue runner,
 * without jitter (each wait is the schedule's own step). The test puts bus messages on the dispatch
 * queue itself (`incidentCreatedOnBus`, as the bus rule would), so the running stack's pipeline,
 * which has its own queues, never sees them; and it moves the clock, so eight attempts spread over
 * two days take a moment.
 */
import { handler as dispatchHandler } from '../../functions/workers/webhook-dispatch.js';
import { deliverWorker } from '../../functions/workers/webhook-deliver.js';
import { useQueues } from '../../shared/adapters/queue.js';
import { newTimeId } from '../../shared/ids.js';
import { installLocalAdapters } from '../../shared/local/compose.js';
import { LocalQueues } from '../../shared/local/queue.js';
import { startQueueWorkers, type QueueWorkers } from '../../shared/local/queue-workers.js';
import { workerById } from '../../shared/workers.js';

export async function startWebhookPipeline(
  clock: () => number,
): Promise<{ queues: LocalQueues; workers: QueueWorkers }> {
  await installLocalAdapters();
  const queues = new LocalQueues({ clock });
  useQueues(queues);
  const workers = await startQueueWorkers({
    queues,
    region: 'us-east-1',
    workers: [workerById('webhook-dispatch'), workerById('webhook-deliver')],
    handlers: {
      'webhook-dispatch': dispatchHandler,
      'webhook-deliver': deliverWorker({ clock, random: () => 0.5 }),
    },
    pollMs: 0,
  });
  return { queues, workers };
}

/**
 * An incident's change of the tenant as the bus rule puts it on the dispatch queue, at `atMs`: an
 * `incident.created` unless `type` says another, carrying `correlationId` as publish-events does.
 */
export function incidentCreatedOnBus(
  tenantId: string,
  atMs: number,
  { type = 'incident.created', correlationId }: { type?: string; correlationId?: string } = {},
): { body: string } {
  const event = {
    version: '0',
    id: newTimeId(),
    'detail-type': type,
    source: 'gatehouse.incidents',
    account: '000000000000',
    time: new Date(atMs).toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {
      incident_id: newTimeId(),
      title: 'Gate forced',
      severity: 'high',
      tenant_id: tenantId,
      message_id: newTimeId(),
      ...(correlationId ? { correlation_id: correlationId } : {}),
    },
  };
  return { body: JSON.stringify(event) };
}
