/** Users in the single table. The user id is the Cognito `sub` of the user's identity. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../vocabulary/roles.js';
import { db, TABLE } from './client.js';
import { pick } from './items.js';
import * as keys from './item-keys.js';
import { queryPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';
import type { ItemKey, Prefetched } from './read-batch.js';

export interface User {
  user_id: string;
  tenant_id: TenantId;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface StoredUser extends User {
  version: number;
}

const USER_FIELDS = ['user_id', 'tenant_id', 'email', 'name', 'role', 'active', 'created_at', 'updated_at'] as const;

export function userFromItem(item: Record<string, unknown>): StoredUser {
  const user = pick<User>(item, USER_FIELDS);
  return { ...user, version: Number(item.version ?? 0) };
}

export function publicUser({ version: _v, ...user }: StoredUser): User {
  return user;
}

function userItem(u: StoredUser) {
  return {
    ...keys.user(u.tenant_id, u.user_id),
    ...keys.userDirectory(u.tenant_id, u.created_at, u.user_id),
    entity: 'USER',
    ...u,
  };
}

export function putNewUser(u: User): TransactItem {
  return {
    Put: { TableName: TABLE, Item: userItem({ ...u, version: 1 }), ConditionExpression: 'attribute_not_exists(PK)' },
  };
}

export function putUserVersion(u: StoredUser, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: userItem(u),
      ConditionExpression: 'attribute_exists(PK) AND version = :v',
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}

export function deleteUserItem(u: StoredUser): TransactItem {
  return {
    Delete: {
      TableName: TABLE,
      Key: keys.user(u.tenant_id, u.user_id),
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':v': u.version },
    },
  };
}

export const userKey = (tenantId: string, userId: string): ItemKey => keys.user(tenantId, userId);

/** The user among items read in one batch (shared/db/read-batch.ts); null when there is none. */
export function userFrom(read: Prefetched, tenantId: string, userId: string): StoredUser | null {
  const item = read.get(userKey(tenantId, userId));
  return item ? userFromItem(item) : null;
}

export async function getUser(tenantId: string, userId: string): Promise<StoredUser | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.user(tenantId, userId), ConsistentRead: true }),
  );
  return out.Item ? userFromItem(out.Item) : null;
}

export async function listUsers(tenantId: TenantId, page: PageRequest): Promise<StoredUser[]> {
  const { GSI1PK } = keys.userDirectory(tenantId, '', '');
  return (await queryPage({ index: 'GSI1', pk: GSI1PK, ascending: true }, page)).map(userFromItem);
}
