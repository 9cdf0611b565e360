/**
 * Seeding and inspection for tests, straight against the local stand-ins the test run started:
 * users with a role, the audit and outbox partitions, and an actor for calling domain code.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createIdentity } from '../../shared/adapters/cognito.js';
import type { AuditEntry } from '../../shared/db/audit/entries.js';
import { auditFromItem } from '../../shared/db/audit/entries.js';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { transactWrite } from '../../shared/db/transact.js';
import { putNewUser } from '../../shared/db/users.js';
import type { StoredEvent } from '../../shared/db/events.js';
import { v7 } from 'uuid';
import type { Principal } from '../../shared/auth/principal.js';
import type { Actor } from '../../shared/domain/actor.js';
import type { Role } from '../../shared/routes/types.js';
import { login, type RegisteredTenant } from './api.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';

const PASSWORD = 'Seeded-user-pass-1';

export async function seedUser(
  tenantId: string,
  role: Role,
): Promise<{ userId: string; email: string; token: string }> {
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2, 10)}@test.example`;
  const identity = await createIdentity({ email, tenantId, password: PASSWORD });
  const at = new Date().toISOString();
  await transactWrite([
    putNewUser({
      user_id: identity.userId,
      tenant_id: systemTenant(tenantId),
      email,
      name: null,
      role,
      active: true,
      created_at: at,
      updated_at: at,
    }),
  ]);
  return { userId: identity.userId, email, token: await login(email, PASSWORD) };
}

/** A tenant's audit entries, oldest first. */
export async function auditEntriesOf(tenantId: string): Promise<AuditEntry[]> {
  const { PK } = keys.audit(tenantId, '');
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PK },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map(auditFromItem);
}

/** A message of the tenant's outbox: what EventBridge and webhooks receive. */
export interface OutboxMessage {
  detail_type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read loosely by the tests and checked with expect, as ApiResponse
  detail: Record<string, any>;
}

/** What the tenant's outbox announced, oldest first. */
export async function outboxOf(tenantId: string): Promise<OutboxMessage[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.outbox(tenantId, '').PK },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as OutboxMessage[];
}

/** The registered tenant's admin as the actor domain code expects (for tests that call it directly). */
export function actorOf(org: Pick<RegisteredTenant, 'userId' | 'tenantId'>): Actor {
  const principal: Principal = {
    userId: org.userId,
    tenantId: org.tenantId,
    role: 'TENANT_ADMIN',
    via: 'jwt',
    requestsPerMinute: null,
  };
  return { kind: 'user', principal, requestId: 'test', sourceIp: '10.1.2.3' };
}

/** An administrator of a tenant that exists in its items only (no registration), as domain code expects. */
export const adminIn = (tenantId: TenantId): Actor => actorOf({ userId: v7(), tenantId });

/**
 * An event received at `receivedMs` as ingest stores it, for a test to write where ingest would
 * (the API takes client ids at most 24 hours old); `fields` overrides any of it.
 */
export function storedEventAt(
  tenantId: string,
  environmentId: string | null,
  receivedMs: number,
  fields: Partial<StoredEvent> = {},
): StoredEvent {
  const at = new Date(receivedMs).toISOString();
  return {
    event_id: v7({ msecs: receivedMs }),
    tenant_id: systemTenant(tenantId),
    environment_id: environmentId,
    sensor_id: null,
    type: 'motion.detected',
    source: 'api',
    occurred_at: at,
    received_at: at,
    location: null,
    severity: null,
    description: null,
    payload: {},
    matched_zone_ids: [],
    matched_signatures: [],
    threat_score: 0.1,
    threat_factors: null,
    processed: false,
    processed_at: null,
    incident_id: null,
    ...fields,
  };
}
