/** API keys in the single table: only a hash of each key is kept. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../vocabulary/roles.js';
import type { DeveloperTier } from '../vocabulary/developer.js';
import { db, TABLE } from './client.js';
import { pick } from './items.js';
import * as keys from './item-keys.js';
import { API_KEY_PREFIX, tenantPk } from './keys.js';
import { forEachPage, queryPage, type PageRequest } from './query.js';
import { transactWrite, type TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';
import type { ItemKey, Prefetched } from './read-batch.js';

export interface ApiKey {
  key_id: string;
  tenant_id: TenantId;
  name: string;
  role: Role;
  prefix: string;
  expires_at: string | null;
  ip_allowlist: string[];
  created_by: string;
  created_at: string;
}

export interface StoredApiKey extends ApiKey {
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  /** A developer key's tier and its own rate a minute (`POST /v1/auth/keys`); absent on portal keys. */
  tier?: DeveloperTier;
  rate_limit?: number | null;
}

const FIELDS = [
  'key_id',
  'tenant_id',
  'name',
  'role',
  'prefix',
  'expires_at',
  'ip_allowlist',
  'created_by',
  'created_at',
  'key_hash',
  'tier',
  'rate_limit',
] as const;

function fromItem(item: Record<string, unknown>): StoredApiKey {
  return pick<StoredApiKey>(item, FIELDS);
}

export function publicApiKey({ key_hash: _h, tier: _t, rate_limit: _r, ...key }: StoredApiKey): ApiKey {
  return key;
}

export function putNewApiKey(k: StoredApiKey): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.apiKey(k.tenant_id, k.key_id), entity: 'APIKEY', ...k },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export function deleteApiKeyItem(tenantId: TenantId, keyId: string): TransactItem {
  return {
    Delete: { TableName: TABLE, Key: keys.apiKey(tenantId, keyId), ConditionExpression: 'attribute_exists(PK)' },
  };
}

export const apiKeyKey = (tenantId: string, keyId: string): ItemKey => keys.apiKey(tenantId, keyId);

/** The key among items read in one batch; null when there is none. */
export function apiKeyFrom(read: Prefetched, tenantId: string, keyId: string): StoredApiKey | null {
  const item = read.get(apiKeyKey(tenantId, keyId));
  return item ? fromItem(item) : null;
}

export async function getApiKey(tenantId: string, keyId: string): Promise<StoredApiKey | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.apiKey(tenantId, keyId), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

/** Newest first: key ids are time-ordered. */
export async function listApiKeys(tenantId: TenantId, page: PageRequest): Promise<StoredApiKey[]> {
  const items = await queryPage(
    { pk: tenantPk(tenantId), skPrefix: API_KEY_PREFIX, ascending: false, consistent: true },
    page,
  );
  return items.map(fromItem);
}

/** Removes every key a user created (when the user is deleted), each with `extra` writes. */
export async function deleteApiKeysOf(
  tenantId: TenantId,
  userId: string,
  extra: (key: StoredApiKey) => TransactItem[] = () => [],
): Promise<number> {
  let deleted = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      FilterExpression: 'created_by = :user',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':sk': API_KEY_PREFIX, ':user': userId },
      ConsistentRead: true,
    },
    async (page) => {
      for (const item of page.Items ?? []) {
        const key = fromItem(item);
        await transactWrite([deleteApiKeyItem(tenantId, key.key_id), ...extra(key)]);
        deleted++;
      }
    },
  );
  return deleted;
}
