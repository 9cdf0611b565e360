/** Users in the single table. The user id is the Cognito `sub` of the user's identity. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../routes/types.js';
import { db, TABLE } from './client.js';
import { keys } from './keys.js';
import type { TransactItem } from './transact.js';

export interface User {
  user_id: string;
  tenant_id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  created_at: string;
  updated_at: string;
}

const USER_FIELDS = ['user_id', 'tenant_id', 'email', 'name', 'role', 'active', 'created_at', 'updated_at'] as const;

export function userFromItem(item: Record<string, unknown>): User {
  return Object.fromEntries(USER_FIELDS.map((f) => [f, item[f] ?? null])) as unknown as User;
}

export function putNewUser(u: User): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.user(u.tenant_id, u.user_id), type: 'USER', ...u, version: 1 },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export async function getUser(tenantId: string, userId: string): Promise<User | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(tenantId, userId), ConsistentRead: true }));
  return out.Item ? userFromItem(out.Item) : null;
}
