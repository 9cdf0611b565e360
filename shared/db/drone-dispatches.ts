/**
 * Drone dispatches in their incident's partition (`T#tid#INC#<id>`): one item per task
 * (`DRONE#<task>`), so "one dispatch per incident and task" is the item's put-if-absent, and an
 * incident's dispatches are one Query of at most four items. Callbacks taken are remembered by
 * their `webhook-id` (`DRONECB#<integration>#<webhook-id>`, TTL 7 days) in the same transaction
 * as the timeline entry they add, so a replay adds nothing.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DroneTask, DroneUpdateStatus } from '../schemas/drones.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import { pick, putNew } from './items.js';
import * as keys from './item-keys.js';
import { queryPage } from './query.js';
import type { TransactItem } from './transact.js';

export type DispatchStatus = 'pending' | 'sent' | DroneUpdateStatus;

export interface DroneUpdate {
  status: DroneUpdateStatus;
  at: string;
  text: string | null;
  media_url: string | null;
}

export interface DroneDispatch {
  dispatch_id: string;
  incident_id: string;
  tenant_id: TenantId;
  integration_id: string;
  task: DroneTask;
  target: { lat: number; lon: number };
  altitude_m: number | null;
  note: string | null;
  status: DispatchStatus;
  requested_by: string;
  attempts: number;
  dock_status_code: number | null;
  dock_answer: string | null;
  dock_error: string | null;
  sent_at: string | null;
  last_update: DroneUpdate | null;
  created_at: string;
  updated_at: string;
}

const FIELDS = [
  'dispatch_id',
  'incident_id',
  'tenant_id',
  'integration_id',
  'task',
  'target',
  'altitude_m',
  'note',
  'status',
  'requested_by',
  'attempts',
  'dock_status_code',
  'dock_answer',
  'dock_error',
  'sent_at',
  'last_update',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof DroneDispatch)[];

const fromItem = (item: Record<string, unknown>): DroneDispatch => pick<DroneDispatch>(item, FIELDS);

/** The dispatch, if no dispatch of its task exists for the incident yet. */
export function putNewDispatch(d: DroneDispatch): TransactItem {
  return putNew({ ...keys.droneDispatch(d.tenant_id, d.incident_id, d.task), entity: 'DRONE_DISPATCH', ...d });
}

/** An incident's dispatches (at most one per task), consistently. */
export async function listDispatches(tenantId: TenantId, incidentId: string): Promise<DroneDispatch[]> {
  const pk = keys.droneDispatch(tenantId, incidentId, '').PK;
  return (await queryPage({ pk, skPrefix: 'DRONE#', consistent: true }, { limit: 20, offset: 0 })).map(fromItem);
}

/**
 * What the dock answered to the command: the answer always; the status only while the dispatch
 * is still `pending` or `failed` (a callback that came in first, `accepted` say, is not overwritten).
 */
export async function recordSendOutcome(
  d: Pick<DroneDispatch, 'tenant_id' | 'incident_id' | 'task'>,
  outcome: Pick<DroneDispatch, 'dock_status_code' | 'dock_answer' | 'dock_error' | 'sent_at' | 'updated_at'> & {
    status: 'sent' | 'failed';
  },
): Promise<void> {
  const key = keys.droneDispatch(d.tenant_id, d.incident_id, d.task);
  const values = {
    ':code': outcome.dock_status_code,
    ':answer': outcome.dock_answer,
    ':error': outcome.dock_error,
    ':sent': outcome.sent_at,
    ':at': outcome.updated_at,
    ':one': 1,
  };
  const answer =
    'dock_status_code = :code, dock_answer = :answer, dock_error = :error, sent_at = :sent, updated_at = :at, attempts = attempts + :one';
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: `SET ${answer}, #status = :status`,
        ConditionExpression: 'attribute_exists(PK) AND #status IN (:pending, :failed)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':status': outcome.status, ':pending': 'pending', ':failed': 'failed' },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: `SET ${answer}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: values,
      }),
    );
  }
}

/** A callback's update of its dispatch: status and last update (last taken wins). */
export function updateFromCallback(
  d: Pick<DroneDispatch, 'tenant_id' | 'incident_id' | 'task'>,
  update: DroneUpdate,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.droneDispatch(d.tenant_id, d.incident_id, d.task),
      UpdateExpression: 'SET #status = :status, last_update = :update, updated_at = :at',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': update.status, ':update': update, ':at': at },
    },
  };
}

/** How long a callback's `webhook-id` is remembered: far past the 5 minutes its timestamp is taken for. */
const SEEN_FOR_SECONDS = 7 * 86_400;

/** Remembers a callback's `webhook-id`; fails (ConditionFailed) when it was taken before. */
export function putCallbackSeen(
  tenantId: TenantId,
  incidentId: string,
  integrationId: string,
  messageId: string,
  atMs: number,
): TransactItem {
  return putNew({
    ...keys.droneCallbackSeen(tenantId, incidentId, integrationId, messageId),
    entity: 'DRONE_CALLBACK',
    expires_at: Math.floor(atMs / 1000) + SEEN_FOR_SECONDS,
  });
}
