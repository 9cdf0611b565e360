/**
 * What a filtered page of events reads (issue 39): about what it answers when the filter keeps
 * most events, and no more when the tenant holds ten times as many; a rare filter still finds its
 * matches further back. Counted from the Query answers DynamoDB Local gives (ScannedCount).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/db/client.js';
import { eventItem, listEvents, writeAll, type EventQuery } from '../../shared/db/events.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import { storedEventAt } from '../support/seed.js';

const COUNTER = 'event-page-reads-counter';

/** Every item the table's Queries read (before filters) while `run` runs. */
async function itemsRead(run: () => Promise<unknown>): Promise<number> {
  let scanned = 0;
  db.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      scanned += (out.output as { ScannedCount?: number }).ScannedCount ?? 0;
      return out;
    },
    { step: 'initialize', name: COUNTER },
  );
  try {
    await run();
  } finally {
    db.middlewareStack.remove(COUNTER);
  }
  return scanned;
}

afterEach(() => {
  db.middlewareStack.remove(COUNTER);
});

/** A tenant with `count` events a second apart: every tenth from a sensor, one in fifty scored high. */
async function tenantWith(count: number): Promise<TenantId> {
  const tenantId = systemTenant(randomUUID());
  const start = Date.now() - count * 1000;
  const items = Array.from({ length: count }, (_, i) =>
    eventItem({
      event: storedEventAt(tenantId, null, start + i * 1000, {
        source: i % 10 === 0 ? 'sensor' : 'api',
        threat_score: i % 50 === 0 ? 0.9 : 0.1,
      }),
      contentHash: `h${i}`,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    }),
  );
  await writeAll(items);
  return tenantId;
}

describe('a filtered page of events', () => {
  const page = { offset: 0, limit: 21 };
  const common: EventQuery = { source: 'api', processed: false };
  let small: TenantId;
  let large: TenantId;
  beforeAll(async () => {
    [small, large] = await Promise.all([tenantWith(200), tenantWith(2000)]);
  });

  it('reads about twice what it answers when the filter keeps most events, whatever the tenant holds', async () => {
    const readSmall = await itemsRead(async () =>
      expect((await listEvents(small, common, page)).events).toHaveLength(21),
    );
    const readLarge = await itemsRead(async () =>
      expect((await listEvents(large, common, page)).events).toHaveLength(21),
    );
    // Before: 200 and 1,000 (a filtered page read 1,000 events a call).
    expect(readSmall).toBeLessThanOrEqual(50);
    expect(readLarge).toBe(readSmall);
  });

  it('reads further back for a rare filter, and finds every match on the page', async () => {
    let answer: Awaited<ReturnType<typeof listEvents>> | undefined;
    const read = await itemsRead(async () => (answer = await listEvents(large, { minScore: 0.5 }, page)));
    expect(answer!.events).toHaveLength(21);
    expect(answer!.events.every((e) => e.threat_score === 0.9)).toBe(true);
    expect(answer!.readLimitReached).toBe(false);
    // 21 matches of one in fifty: about 1,050 events back, read in growing steps (50, 200, 800, 1,000).
    expect(read).toBeGreaterThanOrEqual(1000);
    expect(read).toBeLessThanOrEqual(2000);
  });
});
