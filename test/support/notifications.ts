/**
 * What the local runtime sent to people (LOCAL_NOTIFICATIONS_FILE of the test run's stack): each
 * notification with its acknowledgement link, minted when it was sent. Sending follows the
 * incident's change through the table stream and the bus, so readers wait for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import type { PersonNotification } from '../../shared/adapters/notification-sender.js';
import { pipelineDeadline } from './pipeline.js';

export function sentFile(): string {
  const file = inject('localEnv').LOCAL_NOTIFICATIONS_FILE;
  if (!file) throw new Error('the test stack names no LOCAL_NOTIFICATIONS_FILE');
  return file;
}

function sentNow(file = sentFile()): PersonNotification[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PersonNotification);
}

/**
 * The notifications sent about an incident, by escalation level (they are sent in parallel, so
 * the file's order is not theirs), once there are `count` of them (PIPELINE_WAIT_MS at most).
 */
export async function sentNotifications(incidentId: string, count = 1): Promise<PersonNotification[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const sent = sentNow().filter((n) => n.incident_id === incidentId);
    if (sent.length >= count)
      return sent.sort((a, b) => a.escalation_level - b.escalation_level || a.sent_at.localeCompare(b.sent_at));
    if (Date.now() > deadline)
      throw new Error(`${sent.length} notification(s) of incident ${incidentId} were sent, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The acknowledgement link of the notification of the highest level sent about an incident. */
export async function ackPathOf(incidentId: string, count = 1): Promise<string> {
  return (await sentNotifications(incidentId, count)).at(-1)!.acknowledge_path;
}

/**
 * Waits until every target of every notification of an incident is marked sent (PIPELINE_WAIT_MS at most):
 * the sender claims each (`sending`), then marks it `sent` after it delivered, in the background,
 * so a test that snapshots a tenant's items waits for this first.
 */
export async function notificationsSettled(tenantId: string, incidentId: string): Promise<void> {
  const { PK } = keys.incident(tenantId, incidentId);
  const deadline = pipelineDeadline();
  for (;;) {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': PK, ':sk': 'NOTIFIED#' },
        ConsistentRead: true,
      }),
    );
    const items = out.Items ?? [];
    if (items.length > 0 && items.every((i) => i.status === 'sent')) return;
    if (Date.now() > deadline)
      throw new Error(`the notifications of incident ${incidentId} were not all sent within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
