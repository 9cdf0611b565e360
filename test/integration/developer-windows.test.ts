/**
 * A developer key's windows against DynamoDB Local, driven with explicit times: the minute holds
 * exactly its limit however many calls arrive at once, and the month's quota refuses past it
 * until the month turns.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countDeveloperCall, type DeveloperAccess } from '../../shared/domain/developer/access.js';
import { RateLimitedError } from '../../shared/errors.js';

const access = (over: Partial<DeveloperAccess>): DeveloperAccess => ({
  tier: 'free',
  perMinute: 10,
  monthlyQuota: 1000,
  endpoints: ['usage'],
  caller: `key#${randomUUID()}`,
  ...over,
});

describe('developer windows', () => {
  it("accepts exactly the minute's limit of 30 calls sent at once", async () => {
    const a = access({});
    const at = Date.UTC(2026, 10, 25, 10, 0, 5);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () =>
        countDeveloperCall(a, at).then(
          () => 'ok',
          (e: unknown) => e,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(10);
    const refused = outcomes.filter((o) => o !== 'ok');
    expect(refused.every((e) => e instanceof RateLimitedError)).toBe(true);
    expect((refused[0] as RateLimitedError).window).toEqual({
      limit: 10,
      remaining: 0,
      reset: Date.UTC(2026, 10, 25, 10, 1, 0) / 1000,
    });
    // The next minute starts again.
    expect((await countDeveloperCall(a, Date.UTC(2026, 10, 25, 10, 1, 0))).remaining).toBe(9);
  });

  it('refuses past the monthly quota until the month turns, without counting the refusals', async () => {
    const a = access({ perMinute: 100, monthlyQuota: 3 });
    const day = (d: number) => Date.UTC(2026, 10, d, 12);
    for (const d of [1, 2, 3]) await countDeveloperCall(a, day(d));
    const refused = await countDeveloperCall(a, day(20)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).message).toMatch(
      /monthly quota of the free tier \(3 calls\) is used up; it renews at 2026-12-01T00:00:00.000Z/,
    );
    expect((refused as RateLimitedError).retryAfterSeconds).toBe((Date.UTC(2026, 11, 1) - day(20)) / 1000);
    // December is a new month; an unlimited tier is never refused for its month.
    expect((await countDeveloperCall(a, Date.UTC(2026, 11, 1, 0, 0, 1))).remaining).toBe(99);
    const unlimited = access({ tier: 'enterprise', perMinute: 1000, monthlyQuota: null });
    for (let i = 0; i < 5; i++) await countDeveloperCall(unlimited, day(4) + i * 60_000);
  });
});
