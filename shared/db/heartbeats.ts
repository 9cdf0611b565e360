/**
 * Workers' heartbeats: per worker and UTC hour, how many invocations ran and how many failed, and
 * the last run and last failure, ADDed by one UpdateItem after each invocation
 * (shared/worker-handler.ts). Kept two days (TTL). The live status and the agents read the last
 * day of every worker with one Query of the partition.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { TABLE_KEYS } from './table.js';

export interface HeartbeatHour {
  worker: string;
  /** `YYYY-MM-DDTHH`, UTC. */
  hour: string;
  runs: number;
  errors: number;
  last_run_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  /** How long the oldest record of the hour's last batch had waited when it ran (stream and queue workers). */
  last_lag_ms: number | null;
}

const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

export async function recordHeartbeat(
  workerId: string,
  atMs: number,
  error: string | null,
  lagMs: number | null = null,
): Promise<void> {
  const at = new Date(atMs).toISOString();
  const sets = [
    'last_run_at = :at',
    '#ttl = :ttl',
    ...(error ? ['last_error_at = :at', 'last_error = :error'] : []),
    ...(lagMs !== null ? ['last_lag_ms = :lag'] : []),
  ];
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.heartbeat(workerId, hourOf(atMs)),
      UpdateExpression: `ADD runs :one, errors :failed SET ${sets.join(', ')}`,
      ExpressionAttributeNames: { '#ttl': TABLE_KEYS.ttlAttribute },
      ExpressionAttributeValues: {
        ':one': 1,
        ':failed': error ? 1 : 0,
        ':at': at,
        ':ttl': Math.floor(atMs / 1000) + 2 * 86_400,
        ...(error ? { ':error': error.slice(0, 500) } : {}),
        ...(lagMs !== null ? { ':lag': Math.round(lagMs) } : {}),
      },
    }),
  );
}

/** Every worker's hours from `sinceMs` on (a day of ten workers: at most 240 small items, one Query). */
export async function heartbeatsSince(sinceMs: number): Promise<HeartbeatHour[]> {
  const out: HeartbeatHour[] = [];
  let start: Record<string, unknown> | undefined;
  const since = hourOf(sinceMs);
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.heartbeat('', '').PK },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const [worker, hour] = String(item.SK).split('#') as [string, string];
      if (hour < since) continue;
      out.push({
        worker,
        hour,
        runs: Number(item.runs ?? 0),
        errors: Number(item.errors ?? 0),
        last_run_at: (item.last_run_at as string | undefined) ?? null,
        last_error_at: (item.last_error_at as string | undefined) ?? null,
        last_error: (item.last_error as string | undefined) ?? null,
        last_lag_ms: item.last_lag_ms === undefined ? null : Number(item.last_lag_ms),
      });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
