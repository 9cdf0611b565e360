/**
 * Registrations (docs/data-model.md, pattern 11b): one item per email address that was registered
 * and not yet confirmed, or that was registered while it had an account already. Written by
 * `POST /api/v1/portal/register`, read and deleted by the confirmation link.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import type { TransactItem } from './transact.js';

export interface StoredRegistration {
  email_hash: string;
  /**
   * `pending`: a new account waiting for its link (its identity exists, without a password; the
   * tenant and the user are written when the link is used). `existing`: the address had an account;
   * nothing was made, and the ids are the ones its answers named. `confirmed`: its link was used (kept
   * a week, so the link's page can say so).
   */
  kind: 'pending' | 'existing' | 'confirmed';
  tenant_id: string;
  user_id: string;
  /** SHA-256 of the link's token; the token itself is only in the mail. */
  token_hash: string;
  /** When the link stops working (a new registration of the address mails a new one). */
  link_expires_at: string;
  registered_at: string;
  /** Pending only: what the tenant and the user are made of. */
  email?: string;
  organization_name?: string;
  name?: string | null;
  /** Pending only: the password, sealed (shared/adapters/secret-box.ts) until the link sets it. */
  password_sealed?: string;
  /** Confirmed only: when. */
  confirmed_at?: string;
}

/** How long a confirmed registration is kept (TTL) after its link was used. */
const CONFIRMED_KEPT_SECONDS = 7 * 86_400;

export async function getRegistration(emailHash: string): Promise<StoredRegistration | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.registration(emailHash), ConsistentRead: true }),
  );
  return out.Item ? (out.Item as unknown as StoredRegistration) : null;
}

/**
 * How a registration is written: `new`, over anything (its own identity was just made, so what was
 * there is stale); `renewed`, over the pending registration of the same user only; `trace`, never over
 * a pending registration.
 */
export type RegistrationWrite = { as: 'new' } | { as: 'renewed'; userId: string } | { as: 'trace' };

const CONDITIONS = {
  new: {},
  renewed: { ConditionExpression: 'kind = :pending AND user_id = :user' },
  trace: { ConditionExpression: 'attribute_not_exists(PK) OR kind <> :pending' },
};

/** Writes the registration of an address; false when its condition failed (a concurrent registration). */
export async function putRegistration(r: StoredRegistration, write: RegistrationWrite): Promise<boolean> {
  const values =
    write.as === 'renewed'
      ? { ExpressionAttributeValues: { ':pending': 'pending', ':user': write.userId } }
      : write.as === 'trace'
        ? { ExpressionAttributeValues: { ':pending': 'pending' } }
        : {};
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.registration(r.email_hash), entity: 'REGISTRATION', ...r },
        ...CONDITIONS[write.as],
        ...values,
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof Error && err.name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/**
 * Ends a pending registration in the transaction that makes its tenant: once, for this link only.
 * What is kept says it was confirmed (no password, not even sealed) for a week.
 */
export function endRegistration(r: StoredRegistration, confirmedAt: string): TransactItem {
  const kept: StoredRegistration = {
    email_hash: r.email_hash,
    kind: 'confirmed',
    tenant_id: r.tenant_id,
    user_id: r.user_id,
    token_hash: r.token_hash,
    link_expires_at: r.link_expires_at,
    registered_at: r.registered_at,
    confirmed_at: confirmedAt,
  };
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.registration(r.email_hash),
        entity: 'REGISTRATION',
        ...kept,
        expires_at: Math.floor(Date.parse(confirmedAt) / 1000) + CONFIRMED_KEPT_SECONDS,
      },
      ConditionExpression: 'kind = :pending AND token_hash = :token',
      ExpressionAttributeValues: { ':pending': 'pending', ':token': r.token_hash },
    },
  };
}
