/**
 * A batch of the `workflow-runs` queue (worker `workflow-runner`). A bus message (a stored event,
 * an incident change) starts the runs of the workflows it triggers, exactly once per message and
 * workflow; a run job goes on with a run (a playbook started, a wait ended, a run another run
 * started) (../workflow-runs.ts). The workflows of a tenant are read once per batch, and a tenant's
 * messages are handled one after the other: a run job and the message that made it never race. A
 * message that is not JSON, or a bus message without a tenant or an id, is dropped; the messages
 * whose run has a step to try again are answered with why, to come back after a backoff.
 */
import { log, withLogContext } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import type { QueueMessage } from '../../vocabulary/queues.js';
import { busMessageOf, type BusEnvelope, type BusMessage } from '../webhooks/index.js';
import { continueRun, runWorkflowsFor, workflowsOf, type RunJob } from './runner.js';

type Item<K> = { key: K; job: RunJob } | { key: K; message: BusMessage & { source: string } };

function itemOf<K>(key: K, body: string): Item<K> | null {
  const parsed = JSON.parse(body) as Partial<RunJob> & BusEnvelope;
  if (parsed.kind === 'run' && parsed.tenant_id && parsed.workflow_id && parsed.run_id)
    return { key, job: parsed as RunJob };
  const message = busMessageOf(parsed);
  return message ? { key, message: { ...message, source: String(parsed.source) } } : null;
}

export async function runWorkflowMessages<K>(messages: readonly QueueMessage<K>[]): Promise<Map<K, unknown>> {
  const failed = new Map<K, unknown>();
  const byTenant = new Map<string, Item<K>[]>();
  for (const { key, id, body } of messages) {
    let item: Item<K> | null;
    try {
      item = itemOf(key, body);
    } catch (err) {
      // Not JSON: no retry makes it so. Logged, and left to go.
      log.error('a workflow-runs message is not JSON: dropped', { sqs_message_id: id, err });
      continue;
    }
    if (!item) {
      log.warn('a bus message without a tenant or an id: no workflow runs on it', { sqs_message_id: id });
      continue;
    }
    const tenantId = 'job' in item ? item.job.tenant_id : item.message.tenantId;
    byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), item]);
  }
  await Promise.all(
    [...byTenant].map(([tenantId, items]) =>
      // As that tenant (docs/architecture.md, 27): its credentials reach its own data only.
      asTenant(tenantId, async () => {
        const busMessages = items.filter((i) => 'message' in i);
        let workflows;
        try {
          // Read only when a bus message needs them: a run job carries what it runs.
          workflows = busMessages.length > 0 ? await workflowsOf(tenantId) : [];
        } catch (err) {
          for (const i of busMessages) failed.set(i.key, err);
          workflows = null;
        }
        // One tenant's messages one after the other: a run job and the message that made it never race.
        for (const item of items) {
          try {
            if ('job' in item) await continueRun(item.job);
            // The message's correlation id on its lines and on the changes its runs make (shared/log.ts).
            else if (workflows)
              await withLogContext({ correlation_id: item.message.correlationId }, () =>
                runWorkflowsFor(item.message, workflows),
              );
          } catch (err) {
            failed.set(item.key, err);
          }
        }
      }),
    ),
  );
  return failed;
}
