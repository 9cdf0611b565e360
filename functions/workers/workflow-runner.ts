/**
 * Worker `workflow-runner` (shared/workers.ts): reads the `workflow-runs` queue. A bus message (a
 * stored event, an incident change) starts the runs of the workflows it triggers, exactly once per
 * message and workflow; a run job goes on with a run (a playbook started, a wait ended, a run
 * another run started). The workflows of a tenant are read once per batch. A message whose run has
 * a step to try again is reported alone and comes back after a backoff (shared/domain/workflows/runner.ts).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { retryLater } from '../../shared/adapters/queue-retry.js';
import { busMessageOf, type BusEnvelope, type BusMessage } from '../../shared/domain/webhooks/delivery-policy.js';
import { continueRun, RUNS_QUEUE, runWorkflowsFor, workflowsOf, type RunJob } from '../../shared/domain/workflows/runner.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

type Item = { record: SQSRecord; job: RunJob } | { record: SQSRecord; message: BusMessage & { source: string } };

function itemOf(record: SQSRecord): Item | null {
  const body = JSON.parse(record.body) as Partial<RunJob> & BusEnvelope;
  if (body.kind === 'run' && body.tenant_id && body.workflow_id && body.run_id) return { record, job: body as RunJob };
  const message = busMessageOf(body);
  return message ? { record, message: { ...message, source: String(body.source) } } : null;
}

export const handler = withHeartbeat('workflow-runner', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const fail = (record: SQSRecord, err: unknown) => {
    log.warn('a workflow message is tried again after a backoff', { sqs_message_id: record.messageId, err });
    return retryLater(RUNS_QUEUE, record, failures);
  };
  const byTenant = new Map<string, Item[]>();
  for (const record of event.Records) {
    let item: Item | null;
    try {
      item = itemOf(record);
    } catch (err) {
      // Not JSON: no retry makes it so. Logged, and left to go.
      log.error('a workflow-runs message is not JSON: dropped', { sqs_message_id: record.messageId, err });
      continue;
    }
    if (!item) {
      log.warn('a bus message without a tenant or an id: no workflow runs on it', { sqs_message_id: record.messageId });
      continue;
    }
    const tenantId = 'job' in item ? item.job.tenant_id : item.message.tenantId;
    byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), item]);
  }
  await Promise.all(
    [...byTenant].map(async ([tenantId, items]) => {
      const messages = items.filter((i) => 'message' in i);
      let workflows;
      try {
        // Read only when a bus message needs them: a run job carries what it runs.
        workflows = messages.length > 0 ? await workflowsOf(tenantId) : [];
      } catch (err) {
        await Promise.all(messages.map((i) => fail(i.record, err)));
        workflows = null;
      }
      // One tenant's messages one after the other: a run job and the message that made it never race.
      for (const item of items) {
        try {
          if ('job' in item) await continueRun(item.job);
          else if (workflows) await runWorkflowsFor(item.message, workflows);
        } catch (err) {
          await fail(item.record, err);
        }
      }
    }),
  );
  return { batchItemFailures: failures };
});
