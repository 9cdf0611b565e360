/**
 * Idempotency-Key handling, in the manner of Powertools' idempotency: a record per (tenant, route,
 * key) goes IN_PROGRESS with the body's hash, then COMPLETE with the answer. A repeat with the
 * same body gets the stored answer and stores nothing; with another body, 409. A repeat while the
 * first is still running waits for it (briefly) and then answers the same. A failed first attempt
 * removes its record, so a retry runs afresh. Records expire after 24 hours. The key's form is
 * checked by the route's header schema.
 */
import { createHash } from 'node:crypto';
import { claimIdempotencyKey, completeIdempotencyKey, getIdempotencyRecord, idempotencyKeyOf, releaseIdempotencyKey } from '../db/idempotency.js';
import { ConflictError } from '../errors.js';
import type { CallerActor } from '../vocabulary/actor.js';

const TTL_SECONDS = 24 * 3600;
/** A record IN_PROGRESS for longer than this belongs to a run that died: the next retry takes over. */
const STALE_MS = 60_000;
const WAIT_MS = 10_000;

export interface StoredAnswer<T> {
  status: number;
  body: T;
}

/** A stable hash of a JSON value: object keys sorted, so key order does not matter. */
export function contentHash(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
        : v;
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

export async function withIdempotency<T>(
  tenantId: string,
  scope: string,
  key: string | undefined,
  body: unknown,
  run: () => Promise<StoredAnswer<T>>,
): Promise<StoredAnswer<T> & { replayed: boolean }> {
  if (!key) return { ...(await run()), replayed: false };
  const Key = idempotencyKeyOf(tenantId, scope, key);
  const hash = contentHash(body);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = Date.now();
    if (await claimIdempotencyKey(Key, hash, now, now - STALE_MS, TTL_SECONDS)) break;
    const existing = await getIdempotencyRecord(Key);
    if (!existing) continue;
    if (existing.request_hash !== hash) {
      throw new ConflictError('This Idempotency-Key was used with a different body');
    }
    if (existing.status === 'COMPLETE') {
      return { status: Number(existing.response_status), body: JSON.parse(String(existing.response_body)) as T, replayed: true };
    }
    if (Date.now() > deadline) throw new ConflictError('A request with this Idempotency-Key is still in progress; retry shortly');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let answer: StoredAnswer<T>;
  try {
    answer = await run();
  } catch (err) {
    await releaseIdempotencyKey(Key);
    throw err;
  }
  await completeIdempotencyKey(Key, answer.status, answer.body);
  return { ...answer, replayed: false };
}

/** A creating request made safe to retry: keys are scoped to the caller's own tenant and the route. */
export async function createOnce<T>(
  actor: CallerActor,
  scope: string,
  idempotencyKey: string | undefined,
  body: unknown,
  create: () => Promise<T>,
): Promise<StoredAnswer<T> & { replayed: boolean }> {
  return withIdempotency(actor.principal.tenantId, scope, idempotencyKey, body, async () => ({
    status: 201,
    body: await create(),
  }));
}
