/**
 * Idempotency-Key handling, in the manner of Powertools' idempotency, made safe against partial
 * failure. A record per (tenant, route, key) holds the body's hash and the time the first attempt
 * began. Every attempt of the request makes the same ids from it (`Attempt.idAt`), so whatever an
 * earlier attempt stored before it failed is found again, not stored twice.
 *
 * - A repeat with another body: 409.
 * - A repeat while an attempt holds the key (for the invocation's remaining time): it waits
 *   briefly, then 409 with Retry-After.
 * - An attempt that fails marks the record FAILED; a retry takes over at once (or, when even that
 *   mark could not be written, once the failed attempt's lease has run out) and finishes the work.
 * - A complete request is answered again: from the stored answer, or (`storeAnswer: false`) by
 *   running again, which finds everything stored and writes nothing new.
 *
 * Records expire after 24 hours. The key's form is checked by the route's header schema.
 */
import { createHash } from 'node:crypto';
import {
  completeAttempt,
  failAttempt,
  firstAtOf,
  getIdempotencyRecord,
  idempotencyKeyOf,
  startAttempt,
  type IdempotencyRecord,
} from '../../db/idempotency.js';
import { ConflictError } from '../../errors.js';
import { derivedTimeId } from '../../ids.js';
import { metrics } from '../../metrics.js';
import type { CallerActor } from '../../vocabulary/actor.js';

const TTL_SECONDS = 24 * 3600;
/** How long a repeat waits for an attempt in progress before answering 409. */
const WAIT_MS = 10_000;
/** The lease of an attempt whose caller does not say how long it may run. */
const DEFAULT_LEASE_MS = 60_000;

export interface StoredAnswer<T> {
  status: number;
  body: T;
}

/** One attempt of an idempotent request. */
export interface Attempt {
  /** When the request's first attempt began (ms): the time of the ids it makes. */
  firstAtMs: number;
  /** An earlier attempt began this request: part of its work may be stored already. */
  resumed: boolean;
  /** The request's `index`th id (a UUIDv7 of `firstAtMs`), the same in every attempt. */
  idAt(index: number): string;
}

/** Another attempt of the same request holds the key: 409, and when to try again. */
export class AttemptInProgressError extends ConflictError {
  constructor(readonly retryAfterSeconds: number) {
    super(`A request with this Idempotency-Key is still in progress; retry in ${retryAfterSeconds} s`);
  }
}

/** A stable hash of a JSON value: object keys sorted, so key order does not matter. */
export function contentHash(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

export interface IdempotencyOptions {
  /** How long this invocation may still run (ms): the attempt holds the key that long. */
  leaseMs?: number;
  /**
   * Store the answer with the record (default), or make it again on a repeat by running once more
   * (for runs that find their own stored work by the attempt's ids: a batch's answer is 100 events).
   */
  storeAnswer?: boolean;
  /** Told when marking a failed attempt fails too (the attempt's own error is what the caller gets). */
  onMarkFailed?: (err: unknown) => void;
}

export async function withIdempotency<T>(
  tenantId: string,
  scope: string,
  key: string | undefined,
  body: unknown,
  run: (attempt: Attempt | null) => Promise<StoredAnswer<T>>,
  options: IdempotencyOptions = {},
): Promise<StoredAnswer<T> & { replayed: boolean }> {
  if (!key) return { ...(await run(null)), replayed: false };
  const Key = idempotencyKeyOf(tenantId, scope, key);
  const hash = contentHash(body);
  const seed = `${tenantId}\n${scope}\n${key}`;
  const attemptOf = (firstAtMs: number, resumed: boolean): Attempt => ({
    firstAtMs,
    resumed,
    idAt: (i) => derivedTimeId(firstAtMs, seed, i),
  });
  const leaseMs = Math.max(1000, options.leaseMs ?? DEFAULT_LEASE_MS);
  const deadline = Date.now() + Math.min(WAIT_MS, leaseMs);

  let attempt: Attempt;
  let startedAt: number;
  for (;;) {
    const nowMs = Date.now();
    const started = await startAttempt(Key, hash, nowMs, nowMs + leaseMs, TTL_SECONDS);
    if (started) {
      attempt = started.previous ? attemptOf(firstAtOf(started.previous), true) : attemptOf(nowMs, false);
      startedAt = nowMs;
      break;
    }
    const existing: IdempotencyRecord | null = await getIdempotencyRecord(Key);
    if (!existing) continue;
    if (existing.request_hash !== hash) throw new ConflictError('This Idempotency-Key was used with a different body');
    if (existing.status === 'COMPLETE') {
      metrics.idempotentReplay();
      if (existing.response_body !== undefined) {
        return {
          status: Number(existing.response_status),
          body: JSON.parse(String(existing.response_body)) as T,
          replayed: true,
        };
      }
      return { ...(await run(attemptOf(firstAtOf(existing), true))), replayed: true };
    }
    // FAILED: the next start takes it over. IN_PROGRESS: wait for it, or for its lease to run out.
    if (existing.status === 'IN_PROGRESS' && Date.now() > deadline) {
      const leaseLeft = Number(existing.lease_until ?? existing.started_at + DEFAULT_LEASE_MS) - Date.now();
      throw new AttemptInProgressError(Math.max(1, Math.ceil(leaseLeft / 1000)));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  let answer: StoredAnswer<T>;
  try {
    answer = await run(attempt);
  } catch (err) {
    // When this mark cannot be written either, the record stays IN_PROGRESS until the lease ends.
    await failAttempt(Key, startedAt).catch((markErr: unknown) => options.onMarkFailed?.(markErr));
    throw err;
  }
  await completeAttempt(Key, answer.status, options.storeAnswer === false ? undefined : answer.body);
  return { ...answer, replayed: false };
}

/** A creating request made safe to retry: keys are scoped to the caller's own tenant and the route. */
export async function createOnce<T>(
  actor: CallerActor,
  scope: string,
  idempotencyKey: string | undefined,
  body: unknown,
  create: (attempt: Attempt | null) => Promise<T>,
  options: IdempotencyOptions = {},
): Promise<StoredAnswer<T> & { replayed: boolean }> {
  return withIdempotency(
    actor.principal.tenantId,
    scope,
    idempotencyKey,
    body,
    async (attempt) => ({ status: 201, body: await create(attempt) }),
    options,
  );
}
