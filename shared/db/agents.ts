/**
 * A tenant's agent settings: one item in its partition (`AGENTS`) naming the agents it switched
 * off, read by key with the other lookups where a request already reads some (ingest), or cached
 * briefly per container (shared/domain/agents/settings.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import type { ItemKey, Prefetched } from './read-batch.js';
import type { TransactItem } from './transact.js';

export interface AgentSettings {
  disabled: string[];
  updated_at: string | null;
  version: number;
}

const NONE: AgentSettings = { disabled: [], updated_at: null, version: 0 };

export const agentSettingsKey = (tenantId: string): ItemKey => keys.agentSettings(tenantId);

const settingsFrom = (item: Record<string, unknown> | null | undefined): AgentSettings =>
  item
    ? {
        disabled: [...((item.disabled as string[] | undefined) ?? [])],
        updated_at: (item.updated_at as string | undefined) ?? null,
        version: Number(item.version ?? 0),
      }
    : { ...NONE };

/** The settings among items read in one batch; undefined when they were not read. */
export function agentSettingsFrom(read: Prefetched, tenantId: string): AgentSettings | undefined {
  const item = read.get(agentSettingsKey(tenantId));
  return item === undefined ? undefined : settingsFrom(item);
}

export async function getAgentSettings(tenantId: string): Promise<AgentSettings> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: agentSettingsKey(tenantId), ConsistentRead: true }),
  );
  return settingsFrom(out.Item);
}

/** The settings as they are now, conditioned on the version read (0: none yet). */
export function putAgentSettings(tenantId: string, next: AgentSettings, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...agentSettingsKey(tenantId),
        entity: 'AGENT_SETTINGS',
        tenant_id: tenantId,
        disabled: next.disabled,
        updated_at: next.updated_at,
        version: expectedVersion + 1,
      },
      ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(PK)' : '#version = :expected',
      ...(expectedVersion === 0
        ? {}
        : {
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          }),
    },
  };
}
