/**
 * Rate limits, gone by TTL: per-IP limits of public routes as sliding windows (a log of the
 * caller's accepted calls), failed logins per account, and each tenant's minute (a fixed window). A tenant's minute counts its requests (the plan's rate) and
 * the events its zones received (`z:<zone_id>`), which is how ingest scores a zone's recent
 * activity without reading events back: the last hour is 61 small items of one partition. A
 * minute in which a tenant stored events is also in GSI4, for the live stream.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';

const ZONE_PREFIX = 'z:';

/** A caller's accepted calls (ms, oldest first) and the log's version, for a conditional write. */
export interface CallLog {
  calls: number[];
  version: number;
}

/** The caller's log of accepted calls (consistent: a sliding window must see the last call). */
export async function readCallLog(name: string, caller: string): Promise<CallLog> {
  const item = (
    await db.send(new GetCommand({ TableName: TABLE, Key: keys.rateLog(name, caller), ConsistentRead: true }))
  ).Item;
  return { calls: (item?.calls as number[] | undefined) ?? [], version: Number(item?.version ?? 0) };
}

/** Writes the log if nobody wrote it since `expectedVersion` was read; false when somebody did. */
export async function writeCallLog(
  name: string,
  caller: string,
  calls: number[],
  expectedVersion: number,
  expiresAt: number,
): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.rateLog(name, caller), calls, version: expectedVersion + 1, expires_at: expiresAt },
        ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(PK)' : 'version = :v',
        ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':v': expectedVersion } }),
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/** The policy of one account's login guard: the caller's (shared/domain/accounts/portal.ts). */
export interface LoginAdmission {
  nowMs: number;
  /** Guesses let in freely; past them, one at a time and only while the account is not locked. */
  free: number;
  /** How long (ms) a guess let in holds the account against the next one once the free ones are used. */
  holdMs: number;
  /** TTL (Unix seconds) of the guard. */
  expiresAt: number;
}

/** A guess let in (the how-manyth since the last success), or refused while the account is locked. */
export type LoginTicket = { admitted: true; attempt: number } | { admitted: false; lockedUntil: number };

/**
 * Lets one password guess in, or refuses it, in one conditional write that counts it as failed
 * before the password is tried: the check and the count cannot be told apart by guesses that
 * arrive at once. A guess is let in while fewer than `free` were, or when the account's lock has
 * run out; each one let in locks the account for `holdMs` (what the guesses past `free` see).
 */
export async function admitLoginAttempt(emailHash: string, policy: LoginAdmission): Promise<LoginTicket> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.loginGuard(emailHash),
        UpdateExpression: 'ADD failures :one SET locked_until = :hold, expires_at = :exp',
        ConditionExpression:
          'attribute_not_exists(failures) OR failures < :free OR attribute_not_exists(locked_until) OR locked_until <= :now',
        ExpressionAttributeValues: {
          ':one': 1,
          ':free': policy.free,
          ':now': policy.nowMs,
          ':hold': policy.nowMs + policy.holdMs,
          ':exp': policy.expiresAt,
        },
        ReturnValues: 'UPDATED_NEW',
        // A refusal says until when, without another read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { admitted: true, attempt: Number(out.Attributes?.failures ?? 1) };
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    // The item as it was, in the wire format (the document client does not convert errors).
    const old = (err as { Item?: Record<string, { N?: string }> }).Item;
    return { admitted: false, lockedUntil: Number(old?.locked_until?.N ?? 0) };
  }
}

/**
 * Locks the account until `lockedUntil` (ms) after the `attempt`th guess failed, unless a guess
 * was let in since or a success forgot the failures (then this one is moot).
 */
export async function lockLogin(emailHash: string, attempt: number, lockedUntil: number): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.loginGuard(emailHash),
        UpdateExpression: 'SET locked_until = :until',
        ConditionExpression: 'failures = :attempt',
        ExpressionAttributeValues: { ':until': lockedUntil, ':attempt': attempt },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/** Takes back a guess that was let in but never tried (the identity store failed): it is no failure. */
export async function refundLoginAttempt(emailHash: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.loginGuard(emailHash),
        UpdateExpression: 'ADD failures :minus',
        ConditionExpression: 'failures > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/** A successful login forgets the failures. */
export async function clearLoginGuard(emailHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.loginGuard(emailHash) }));
}

export interface MinuteCount {
  /** Count one request, refused past `limit` (null: no limit). */
  request: { limit: number | null } | null;
  /** Events stored in the minute: the first puts the minute in the stored-events index (GSI4). */
  events: number;
  /** Events per zone id to add. */
  zones: ReadonlyMap<string, number>;
}

/** A tenant's minute after a count: its requests so far, and the counts of the zones just added to. */
export interface MinuteCounted {
  hits: number;
  zones: Map<string, number>;
}

/**
 * Adds to a tenant's minute in one write: a request (only while under its limit) and zone events.
 * Returns the minute's requests so far (this one included) and the new counts of the zones added
 * to, or null when the limit refused the request (and then nothing was added).
 */
export async function countTenantMinute(
  tenantId: string,
  windowStart: number,
  expiresAt: number,
  count: MinuteCount,
): Promise<MinuteCounted | null> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':exp': expiresAt };
  const adds: string[] = [];
  if (count.request) {
    adds.push('hits :one');
    values[':one'] = 1;
  }
  [...count.zones].forEach(([zoneId, n], i) => {
    names[`#z${i}`] = `${ZONE_PREFIX}${zoneId}`;
    values[`:z${i}`] = n;
    adds.push(`#z${i} :z${i}`);
  });
  const sets = ['expires_at = if_not_exists(expires_at, :exp)'];
  if (count.events > 0) {
    adds.push('events :events');
    values[':events'] = count.events;
    // The same keys all minute long: the keys-only index is written once, when they appear.
    const minute = keys.tenantEventMinute(windowStart, tenantId);
    sets.push('GSI4PK = :g4pk', 'GSI4SK = :g4sk');
    values[':g4pk'] = minute.GSI4PK;
    values[':g4sk'] = minute.GSI4SK;
  }
  if (adds.length === 0) return { hits: 0, zones: new Map() };
  const limit = count.request?.limit ?? null;
  if (limit !== null) values[':limit'] = limit;
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.rateWindow('tenant', tenantId, windowStart),
        UpdateExpression: `ADD ${adds.join(', ')} SET ${sets.join(', ')}`,
        ...(limit !== null ? { ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit' } : {}),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const zones = new Map<string, number>();
    for (const [name, value] of Object.entries(out.Attributes ?? {})) {
      if (name.startsWith(ZONE_PREFIX)) zones.set(name.slice(ZONE_PREFIX.length), Number(value));
    }
    return { hits: Number(out.Attributes?.hits ?? 0), zones };
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return null;
    throw err;
  }
}

/** Events per zone id in a tenant's minutes from `fromWindow` to `toWindow` (window starts, inclusive). */
export async function zoneEventsOfTenant(
  tenantId: string,
  fromWindow: number,
  toWindow: number,
): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.rateWindow('tenant', tenantId, 0).PK,
          ':from': keys.rateWindow('tenant', tenantId, fromWindow).SK,
          ':to': keys.rateWindow('tenant', tenantId, toWindow).SK,
        },
        // Eventually consistent, like the index read it replaces (events by environment): half
        // the price; a count written in the last moment may be missed.
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      for (const [name, value] of Object.entries(item)) {
        if (name.startsWith(ZONE_PREFIX))
          totals.set(name.slice(ZONE_PREFIX.length), (totals.get(name.slice(ZONE_PREFIX.length)) ?? 0) + Number(value));
      }
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return totals;
}

/**
 * The tenants that stored events in the minutes from `fromWindow` to `toWindow` (window starts,
 * inclusive): GSI4, one Query per hour the range touches. Eventually consistent, as every index.
 */
export async function tenantsWithEvents(fromWindow: number, toWindow: number): Promise<Set<string>> {
  const tenants = new Set<string>();
  for (let hour = fromWindow - (fromWindow % 3600); hour <= toWindow; hour += 3600) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await db.send(
        new QueryCommand({
          TableName: TABLE,
          IndexName: 'GSI4',
          KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': keys.tenantEventMinute(hour, '').GSI4PK,
            ':from': `${Math.max(fromWindow, hour)}#`,
            ':to': `${Math.min(toWindow, hour + 3540)}#~`,
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of out.Items ?? []) tenants.add(String(item.GSI4SK).split('#')[1]!);
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }
  return tenants;
}
