/**
 * Per-address limits hold over any rolling window of their length, not per clock minute: with a
 * fixed window, 10 reports just before the minute turned and 10 just after were all accepted
 * within 2 seconds. The limiter is driven with explicit times against DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../shared/errors.js';
import { consumeRateLimit } from '../../shared/domain/requests/rate-limit.js';
import { LOGIN_FREE_FAILURES, loginLockMs } from '../../shared/domain/accounts/portal.js';
import { admitLoginAttempt, lockLogin, refundLoginAttempt } from '../../shared/db/rate-limits.js';

describe('sliding per-address limits', () => {
  it('allows no more than 10 in any 60 seconds, across a minute boundary, and one more once the oldest leaves', async () => {
    const caller = `198.51.100.${randomUUID()}`;
    // Half a second before a minute turns.
    const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const t0 = minute - 500;
    for (let i = 0; i < 10; i++) {
      const state = await consumeRateLimit('test-sliding', caller, 10, t0 + i * 50);
      expect(state.remaining).toBe(9 - i);
    }
    // Just after the minute turned: a fixed window would start again at 10.
    for (const at of [minute + 1, minute + 1500, t0 + 59_999]) {
      const refused = await consumeRateLimit('test-sliding', caller, 10, at).catch((e: unknown) => e);
      expect(refused, String(at - t0)).toBeInstanceOf(RateLimitedError);
      const wait = (refused as RateLimitedError).retryAfterSeconds;
      // Until the oldest accepted call is 60 s old.
      expect(wait).toBe(Math.max(1, Math.ceil((t0 + 60_000 - at) / 1000)));
    }
    // The first call has left the window: exactly one more.
    expect((await consumeRateLimit('test-sliding', caller, 10, t0 + 60_001)).remaining).toBe(0);
    await expect(consumeRateLimit('test-sliding', caller, 10, t0 + 60_002)).rejects.toBeInstanceOf(RateLimitedError);
    // Refused calls were not counted: the second call leaves at t0 + 60 050.
    expect((await consumeRateLimit('test-sliding', caller, 10, t0 + 60_051)).remaining).toBe(0);
  });

  it('parallel calls from one address are counted exactly', async () => {
    const caller = `198.51.100.${randomUUID()}`;
    const now = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: 15 }, (_, i) => consumeRateLimit('test-parallel', caller, 10, now + i)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RateLimitedError);
  });
});

describe('login lock policy', () => {
  it('five failures pass; then 30 s, doubling, at most 15 minutes', () => {
    expect([1, 2, 3, 4].map(loginLockMs)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 50].map(loginLockMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000,
    ]);
  });

  it('guesses at once are let in five at most, and one each time the lock runs out (explicit times)', async () => {
    const account = `test-${randomUUID()}`;
    const policy = (nowMs: number) => ({
      nowMs,
      free: LOGIN_FREE_FAILURES,
      holdMs: loginLockMs(LOGIN_FREE_FAILURES),
      expiresAt: Math.ceil(nowMs / 1000) + 3600,
    });
    const burst = (nowMs: number, n: number) =>
      Promise.all(Array.from({ length: n }, () => admitLoginAttempt(account, policy(nowMs))));
    const admitted = (tickets: Awaited<ReturnType<typeof burst>>) =>
      tickets.flatMap((t) => (t.admitted ? [t.attempt] : [])).sort((a, b) => a - b);
    const t0 = Date.now();
    const first = await burst(t0, 20);
    expect(admitted(first)).toEqual([1, 2, 3, 4, 5]);
    // The refused see the fifth's hold: the first lock.
    for (const t of first) if (!t.admitted) expect(t.lockedUntil).toBe(t0 + 30_000);
    // Still locked a moment before it runs out.
    expect(admitted(await burst(t0 + 29_999, 10))).toEqual([]);
    // Run out: one guess of a burst is let in, the sixth; failing, it locks for 60 s.
    const t1 = t0 + 30_000;
    expect(admitted(await burst(t1, 10))).toEqual([6]);
    await lockLogin(account, 6, t1 + loginLockMs(6));
    expect(admitted(await burst(t1 + 59_999, 10))).toEqual([]);
    // A guess let in but never tried (the identity store failed) is taken back: the next is the seventh again.
    const t2 = t1 + 60_000;
    expect(admitted(await burst(t2, 10))).toEqual([7]);
    await refundLoginAttempt(account);
    expect(admitted(await burst(t2 + 30_000, 10))).toEqual([7]);
  });
});
